//! The command line: serve, call, tools, demo, srd, campaign.

/// `println!` that returns the write error instead of panicking: a closed pipe
/// (`tabletop tools --json | head -c 10`) ends the command quietly (see [`main`]).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}

mod campaign;
mod demo;
mod srd;
mod token;

use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use rmcp::ServiceExt;
use serde_json::Value;
use tabletop_server::catalog::{Category, Profile, SchemaDetail, Surface};
use tabletop_server::config::Settings;
use tabletop_server::config::parse_category;
use tabletop_server::mcp::TabletopServer;
use tabletop_server::surface;

/// Tabletop: a 5e (SRD 5.1) game-master engine served over the Model Context Protocol.
#[derive(Debug, Parser)]
#[command(name = "tabletop", version, about, propagate_version = true)]
struct Cli {
    #[command(flatten)]
    settings: Settings,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve MCP over stdio (logs go to stderr), or over Streamable HTTP with --http.
    Serve {
        /// Serve MCP Streamable HTTP at http://ADDR/mcp for every campaign, with bearer tokens
        /// (`tabletop token create`), instead of stdio. Loopback only unless --public.
        #[arg(long, value_name = "ADDR")]
        http: Option<std::net::SocketAddr>,
        /// Allow a non-loopback --http address (put TLS in front of it).
        #[arg(long, requires = "http")]
        public: bool,
        /// A browser origin allowed to call besides loopback ones (repeatable).
        #[arg(
            long,
            value_name = "ORIGIN",
            env = "TABLETOP_ALLOWED_ORIGINS",
            value_delimiter = ','
        )]
        allowed_origin: Vec<String>,
        /// Largest HTTP request body in bytes.
        #[arg(long, default_value_t = tabletop_server::http::DEFAULT_MAX_BODY)]
        max_body: usize,
        /// Database connections per campaign over HTTP (concurrent calls of one campaign).
        #[arg(long, default_value_t = 2)]
        engines: usize,
        /// Which tools to advertise [default: full, or the config file's].
        #[arg(long, value_enum, env = "TABLETOP_PROFILE")]
        profile: Option<Profile>,
        /// Categories to enable: with full, only these; with core, these in addition (comma-separated).
        #[arg(long, value_delimiter = ',', value_parser = parse_category)]
        categories: Vec<Category>,
        /// Schema detail advertised [default: compact, or the config file's].
        #[arg(long, value_enum, env = "TABLETOP_SCHEMAS")]
        schemas: Option<SchemaDetail>,
    },
    /// Run one tool call and print its text result (the structured result with --json-output).
    Call {
        /// Tool name, e.g. roll_dice.
        tool: String,
        /// Arguments as a JSON object, e.g. '{"expression":"4d6kh3"}'.
        #[arg(default_value = "{}")]
        json: String,
        /// Print the structured result instead of the text.
        #[arg(long)]
        json_output: bool,
    },
    /// Show the advertised tool surface.
    Tools {
        /// Which profile to show.
        #[arg(long, value_enum, default_value = "full")]
        profile: Profile,
        /// Print the exact tools/list JSON a client receives.
        #[arg(long)]
        json: bool,
        /// Print bytes and o200k tokens of tools/list for every profile.
        #[arg(long)]
        tokens: bool,
    },
    /// Play a short scripted scene through the real server over MCP and print the transcript.
    Demo {
        /// Seed for reproducible rolls.
        #[arg(long, default_value_t = 7)]
        demo_seed: u64,
    },
    /// Install the SRD data (from a folder or a verified download) and show its status.
    Srd {
        #[command(subcommand)]
        action: srd::SrdCommand,
    },
    /// Bearer tokens for `serve --http`: create, list, revoke.
    Token {
        #[command(subcommand)]
        action: token::TokenCommand,
    },
    /// Manage campaigns in the data dir.
    Campaign {
        #[command(subcommand)]
        action: campaign::CampaignCommand,
    },
}

pub fn main() -> ExitCode {
    tabletop_server::logging::init();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // The reader went away (`| head`): what it wanted was written; stop quietly.
        Err(e) if broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Whether `e` is (or was caused by) writing to a closed pipe.
fn broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let s = cli.settings;
    match cli.command {
        Command::Serve {
            http: Some(addr),
            public,
            allowed_origin,
            max_body,
            engines,
            ..
        } => {
            let opts = tabletop_server::http::HttpOptions {
                addr,
                public,
                allowed_origins: allowed_origin,
                max_body_bytes: max_body,
                engines_per_campaign: engines,
            };
            opts.check()?;
            let table = tabletop_server::http::Table::open(
                s.store_location()?,
                s.compendium_source()?,
                s.seed()?,
                engines,
            )?;
            let rt = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?;
            rt.block_on(tabletop_server::http::serve(
                std::sync::Arc::new(table),
                opts,
            ))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve {
            profile,
            categories,
            schemas,
            ..
        } => {
            let surface = s
                .config_file()?
                .surface_parts(profile, &categories, schemas)?;
            let engine = s.open_engine()?;
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            rt.block_on(async move {
                // Repeated reads are answered from a memo while the campaign is unchanged; this
                // transport splices its answers in.
                let memo = tabletop_server::memo::Memo::new();
                let server = TabletopServer::new(engine, surface).with_memo(memo.clone());
                // Pipes (how MCP clients launch a server) are driven by the IO reactor; anything
                // else falls back to Tokio's blocking stdio. Saves two thread hand-offs per call.
                // Every line is checked first (`-32700`/`-32602` answers, never silence); a plain
                // `tools/call` is answered by the transport through the server's direct handle.
                let (read, write) = rmcp::transport::stdio_pipes();
                let transport = tabletop_server::stdio::LineTransport::new(read, write)
                    .with_memo(memo)
                    .with_direct(server.direct());
                let running = server.serve(transport).await?;
                running.waiting().await?;
                anyhow::Ok(())
            })?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Call {
            tool,
            json,
            json_output,
        } => {
            let args: Value = serde_json::from_str(&json)
                .with_context(|| format!("the arguments are not valid JSON: {json}"))?;
            let server = TabletopServer::new(s.open_engine()?, Surface::new(Profile::Full, &[]));
            match server.call(&tool, &args) {
                Ok(reply) => {
                    if json_output {
                        outln!("{}", serde_json::to_string_pretty(&reply.structured())?);
                    } else {
                        outln!("{}", reply.text);
                    }
                    Ok(ExitCode::SUCCESS)
                }
                Err(e) => {
                    eprintln!("tool error: {e}");
                    Ok(ExitCode::from(2))
                }
            }
        }
        Command::Tools {
            profile,
            json,
            tokens,
        } => {
            if json {
                outln!(
                    "{}",
                    serde_json::to_string_pretty(&surface::tools_list_json(profile))?
                );
            } else if tokens {
                for p in [Profile::Full, Profile::Core] {
                    let (bytes, toks) = surface::measure(p)?;
                    let n = surface::tool_names(p).len();
                    outln!(
                        "{:<5} {n:>3} tools  {bytes:>7} bytes  {toks:>6} o200k tokens",
                        format!("{p:?}").to_lowercase()
                    );
                }
            } else {
                for t in Surface::new(profile, &[]).tools() {
                    outln!("{:<22} {:<11} {}", t.name, t.category.key(), t.description);
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Demo { demo_seed } => demo::run(demo_seed),
        Command::Campaign { action } => campaign::run(&s, action),
        Command::Token { action } => token::run(&s, action),
        Command::Srd { action } => srd::run(&s, action),
    }
}

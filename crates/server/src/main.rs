//! `tabletop`: the MCP server and its command line.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}

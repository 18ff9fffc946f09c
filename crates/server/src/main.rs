//! `tabletop`: the MCP server and its command line.

mod cli;

/// mimalloc instead of the system allocator: a tool call allocates and frees many small strings
/// and maps (a sheet's derived values, its JSON), where glibc's malloc spent about a third of a
/// write's instructions (see BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Sets mimalloc's options before anything is allocated (an ELF constructor: the first
/// allocation, which reserves mimalloc's first arena, happens before `main`). Arenas are committed
/// on demand and freed memory is given back at once: loading the SRD parses megabytes of JSON that
/// are freed at once, and with mimalloc's defaults they stay resident (a 64–72 MB peak instead of
/// about 34 MB). Neither adds a system call to a tool call (see BENCHMARKS.md).
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static SET_ALLOCATOR_OPTIONS: extern "C" fn() = set_allocator_options;

#[cfg(target_os = "linux")]
extern "C" fn set_allocator_options() {
    // `mi_option_arena_eager_commit` and `mi_option_purge_delay`: their places in mimalloc 3's
    // `mi_option_e`.
    const ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;
    const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    // SAFETY: setting an option is a store into mimalloc's option table; nothing runs alongside
    // a constructor.
    unsafe {
        libmimalloc_sys::mi_option_set(ARENA_EAGER_COMMIT, 0);
        libmimalloc_sys::mi_option_set(PURGE_DELAY, 0);
    }
}

fn main() -> std::process::ExitCode {
    cli::main()
}

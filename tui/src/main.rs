//! The `fencelab` binary; everything lives in the library.

fn main() -> std::process::ExitCode {
    fencelab::main()
}

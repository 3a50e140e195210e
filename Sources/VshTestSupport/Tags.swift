import Testing

extension Tag {
    /// Suites that take seconds each: the built binary through a pty, tmux and files, the
    /// soak, the fuzzer. They live in VshEndToEndTests and VshFuzzTests, which `make check`
    /// skips and `make test` (CI) runs.
    @Tag package static var slow: Self
}

//! Sets the `cfg`s that mark tests needing absent outside test data as ignored.

fn main() {
    gpuabi_testdata::emit_cfgs();
}

#!/usr/bin/env bash
# Builds the web page into web/dist/: index.html, app.js, style.css and pkg/ (the
# gpuabi-web crate compiled to WebAssembly with its wasm-bindgen JavaScript). Any static
# file server serves web/dist; nothing runs on the server.
#
# Needs Rust (rustup) and, once, network access to crates.io: it adds the
# wasm32-unknown-unknown target with rustup and installs wasm-bindgen-cli with
# `cargo install` when missing, of exactly the version crates/gpuabi-web pins (the two
# must match).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
out=web/dist

version=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)"$/\1/p' crates/gpuabi-web/Cargo.toml)
if [ -z "$version" ]; then
    echo "web/build.sh: no exact wasm-bindgen version in crates/gpuabi-web/Cargo.toml" >&2
    exit 1
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    echo "web/build.sh: adding the wasm32-unknown-unknown target (rustup target add)" >&2
    rustup target add wasm32-unknown-unknown
fi

bindgen=$(command -v wasm-bindgen || true)
if [ -z "$bindgen" ] || [ "$("$bindgen" --version)" != "wasm-bindgen $version" ]; then
    echo "web/build.sh: installing wasm-bindgen-cli $version (cargo install; a few minutes, once)" >&2
    cargo install wasm-bindgen-cli --version "$version"
    bindgen="${CARGO_HOME:-$HOME/.cargo}/bin/wasm-bindgen"
fi

# No debug information: the page does not need it, and it would be most of the file.
CARGO_PROFILE_RELEASE_DEBUG=0 cargo build --release --target wasm32-unknown-unknown \
    -p gpuabi-web ${CARGO_BUILD_JOBS:+-j "$CARGO_BUILD_JOBS"}
wasm=target/wasm32-unknown-unknown/release/gpuabi_web.wasm

rm -rf "$out"
mkdir -p "$out"
"$bindgen" --target web --no-typescript --out-dir "$out/pkg" "$wasm"
cp web/index.html web/app.js web/style.css "$out/"

echo "web/build.sh: built $out ($(du -sh "$out" | cut -f1)); serve it with any static server, e.g."
echo "  python3 -m http.server -d $out 8000   # then open http://localhost:8000/"

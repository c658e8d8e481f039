// --pre-js of sim_bench.cjs: Node >= 18 has a global fetch, which Emscripten 3.1.6 calls on a
// file path (and fails); hand it the binary read with fs instead (toolchain.md P4).
Module['wasmBinary'] = require('fs').readFileSync(__dirname + '/sim_bench.wasm');

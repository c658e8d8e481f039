// --pre-js: lets the Emscripten 3.1.6 ES-module output load in Node ESM. Its Node branch still
// uses CommonJS `require`/`__dirname`, and Node's global fetch cannot read the .wasm from a file
// path, so we define both from process.getBuiltinModule (Node >= 20.16) and hand the module its
// wasm bytes. `_scriptDir` holds import.meta.url in ES6 mode (import.meta itself cannot appear
// in a pre-js: 3.1.6 does not preprocess it). A no-op in browsers and workers.
if (typeof process == 'object' && process.versions && process.versions.node &&
    typeof process.getBuiltinModule == 'function') {
  var require = process.getBuiltinModule('module').createRequire(_scriptDir);
  var __dirname = require('path').dirname(require('url').fileURLToPath(_scriptDir));
  if (!Module['wasmBinary'] && !Module['instantiateWasm']) {
    Module['wasmBinary'] = require('fs').readFileSync(
        require('url').fileURLToPath(_scriptDir).replace(/\.m?js$/, '.wasm'));
  }
}

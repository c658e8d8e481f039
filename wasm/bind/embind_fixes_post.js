// --post-js: replaces embind's invoker factory (Emscripten 3.1.6 internals) with one that
//  - after a call returns, throws the pending error guard() recorded (wasm/bind/guard.h): the
//    C++ side never throws into JS, so every C++ destructor has run by then;
//  - when a call throws anyway (an exception that escaped without a guard, a JS error),
//    restores the wasm stack pointer and runs the argument destructors. Without this every
//    such exception leaks stack and heap until the module dies (~10^5 throws); a raw escaped
//    C++ exception (a bare number) becomes an Error named CppException carrying what().
// Keep the emscripten version pinned: this touches internals.
function nkiThrowPending() {
  var kind = Module['_nki_pending_kind']();
  if (!kind) return;
  var message = UTF8ToString(Module['_nki_pending_message']());
  Module['_nki_clear_pending']();
  var err = new Error(message);
  err.name = kind === 1 ? 'NkiError' : 'InternalError';
  throw err;
}

craftInvokerFunction = function (humanName, argTypes, classType, cppInvokerFunc, cppTargetFunc) {
  var argCount = argTypes.length;
  if (argCount < 2) {
    throwBindingError("argTypes array size mismatch! Must at least get return value and 'this' types!");
  }
  var isClassMethodFunc = argTypes[1] !== null && classType !== null;
  var retType = argTypes[0];
  var returns = retType.name !== 'void';
  var expected = argCount - 2;
  return function () {
    if (arguments.length !== expected) {
      throwBindingError('function ' + humanName + ' called with ' + arguments.length +
                        ' arguments, expected ' + expected + ' args!');
    }
    var destructors = [];
    var sp = stackSave();
    var wired = [cppTargetFunc];
    var rv;
    try {
      if (isClassMethodFunc) wired.push(argTypes[1]['toWireType'](destructors, this));
      for (var i = 0; i < expected; ++i) {
        wired.push(argTypes[i + 2]['toWireType'](destructors, arguments[i]));
      }
      rv = cppInvokerFunc.apply(null, wired);
    } catch (e) {
      stackRestore(sp);
      runDestructors(destructors);
      if (typeof e == 'number' && Module['getExceptionMessage']) {
        var err = new Error(Module['getExceptionMessage'](e));
        err.name = 'CppException';
        throw err;
      }
      throw e;
    }
    runDestructors(destructors);
    var result = returns ? retType['fromWireType'](rv) : undefined;
    nkiThrowPending();
    return result;
  };
};

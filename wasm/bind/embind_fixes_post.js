// --post-js: replaces embind's invoker factory (Emscripten 3.1.6 internals) with one that, when
// a call throws, restores the wasm stack pointer and runs the argument destructors. Without it
// every exception thrown through a bound function leaks stack and heap until the module dies
// (~10^5 throws). A raw escaped C++ exception (a bare number) becomes an Error named
// CppException carrying what(). Keep the emscripten version pinned: this touches internals.
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
    if (returns) return retType['fromWireType'](rv);
  };
};

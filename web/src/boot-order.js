// The name the page gives its first runtime worker: that worker holds its boot until the page
// posts {type: "start"} (../main.js, once the editor is up; ./worker.js). Its own module so the
// boot chunk and the worker bundle share it without importing each other.
export const AFTER_EDITOR = "nki-playground:after-editor";

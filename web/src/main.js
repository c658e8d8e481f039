// The playground page: editor, Run, IR and output panes. All Python/wasm work happens in
// ./worker.js; this file only moves text between the DOM and the worker.
// Kernel-derived text is always inserted with textContent / text nodes, never as HTML.
import defaultSource from "../../kernels/tensor_add.py?raw";

const STORAGE_KEY = "nki-playground:source";
const FILENAME = "tensor_add.py";

const editor = document.getElementById("editor");
const runButton = document.getElementById("run");
const status = document.getElementById("status");
const irPane = document.getElementById("ir");
const outputPane = document.getElementById("output");

editor.value = loadSource();
editor.addEventListener("input", () => saveSource(editor.value));

let ready = false;
let running = null; // id of the run in flight
let nextId = 1;

function setStatus(state, text = state) {
  status.dataset.state = state;
  status.textContent = text;
}

const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
worker.onmessage = ({ data }) => {
  switch (data.type) {
    case "status":
      if (data.state === "ready") {
        ready = true;
        if (running === null) setStatus("ready");
      } else {
        setStatus("error", "error: the runtime failed to load");
        appendOutput(`${data.message}\n`, "stderr");
      }
      break;
    case "stdout":
    case "stderr":
      appendOutput(data.text, data.type);
      break;
    case "done":
      if (data.id !== running) break;
      running = null;
      irPane.textContent = data.traces.map((t) => t.text.replace(/\n?$/, "\n")).join("\n");
      setStatus(data.exitCode === 0 ? "ready" : "error", data.exitCode === 0 ? "ready" : `error (exit code ${data.exitCode})`);
      break;
    case "failed":
      if (data.id !== running) break;
      running = null;
      appendOutput(`internal error: ${data.message}\n`, "stderr");
      setStatus("error");
      break;
  }
};
worker.onerror = (event) => {
  setStatus("error", "error: the worker failed to start");
  appendOutput(`${event.message ?? "worker error"}\n`, "stderr");
};

function run() {
  if (running !== null) return;
  running = nextId++;
  irPane.textContent = "";
  outputPane.textContent = "";
  setStatus("running", ready ? "running" : "running (waiting for the runtime to load…)");
  worker.postMessage({ type: "run", id: running, source: editor.value, filename: FILENAME });
}

function appendOutput(text, stream) {
  if (stream === "stderr") {
    const span = document.createElement("span");
    span.className = "stderr";
    span.textContent = text;
    outputPane.append(span);
  } else {
    outputPane.append(document.createTextNode(text));
  }
}

runButton.addEventListener("click", run);
document.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    run();
  }
});
// Tab indents inside the editor instead of moving focus.
editor.addEventListener("keydown", (event) => {
  if (event.key === "Tab" && !event.shiftKey && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    editor.setRangeText("    ", editor.selectionStart, editor.selectionEnd, "end");
    saveSource(editor.value);
  }
});

function loadSource() {
  try {
    return localStorage.getItem(STORAGE_KEY) ?? defaultSource;
  } catch {
    return defaultSource; // storage disabled
  }
}

function saveSource(text) {
  try {
    localStorage.setItem(STORAGE_KEY, text);
  } catch {
    // storage full or disabled: keep working without persistence
  }
}

// The toolbar's status line (role=status, aria-live): the runtime's boot stages and run states.
// Its own module so the boot chunk (../main.js) can show stages before the page is loaded.

const STAGE_TEXT = {
  downloading: "downloading the runtime…",
  starting: "starting Python…",
  ready: "ready",
  error: "error: the runtime failed to load",
};

export function setStatus(state, text = STAGE_TEXT[state] ?? state) {
  const status = document.getElementById("status");
  status.dataset.state = state;
  status.textContent = text;
}

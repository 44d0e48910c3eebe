/** Where Trove's own pages find their one stylesheet. */
export const PAGE_STYLESHEET_PATH = '/trove-pages.css';

/** The stylesheet of Trove's own pages: plain CSS, light and dark. */
export const PAGE_STYLESHEET = `:root {
  color-scheme: light dark;
  --background: #f4f5f2;
  --card: #ffffff;
  --text: #1d231f;
  --muted: #5d6660;
  --accent: #3f6b4f;
  --accent-text: #ffffff;
  --border: #d5dad6;
  --error-background: #fbe9e7;
  --error-text: #8a1f11;
}
@media (prefers-color-scheme: dark) {
  :root {
    --background: #161a17;
    --card: #1f2521;
    --text: #e6ebe7;
    --muted: #a1aba4;
    --accent: #7fb08f;
    --accent-text: #10150f;
    --border: #38413b;
    --error-background: #3b1d19;
    --error-text: #f4b8ae;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0;
  min-height: 100vh;
  display: flex;
  align-items: flex-start;
  justify-content: center;
  padding: 6vh 1rem 2rem;
  background: var(--background);
  color: var(--text);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
main {
  width: 100%;
  max-width: 30rem;
  background: var(--card);
  border: 1px solid var(--border);
  border-radius: 12px;
  padding: 2rem;
  box-shadow: 0 1px 3px rgb(0 0 0 / 8%);
}
main.wide { max-width: 42rem; }
header { display: flex; align-items: baseline; gap: 0.6rem; margin-bottom: 1.5rem; }
header .brand { font-size: 1.6rem; font-weight: 700; color: var(--accent); }
header .tagline { color: var(--muted); }
h1 { font-size: 1.25rem; margin: 0 0 1rem; }
h2 { font-size: 1.05rem; margin: 1.75rem 0 0.5rem; }
p { margin: 0.5rem 0; }
label { display: block; font-weight: 600; margin: 1rem 0 0.3rem; }
label.check { display: flex; gap: 0.5rem; align-items: center; font-weight: 400; }
input[type="email"], input[type="password"], input[type="text"] {
  width: 100%;
  padding: 0.6rem 0.7rem;
  border: 1px solid var(--border);
  border-radius: 8px;
  background: transparent;
  color: inherit;
  font: inherit;
}
input:focus-visible, button:focus-visible, a:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
button, .button {
  display: block;
  width: 100%;
  margin-top: 1.25rem;
  padding: 0.65rem 1rem;
  border: 1px solid var(--accent);
  border-radius: 8px;
  background: var(--accent);
  color: var(--accent-text);
  font: inherit;
  font-weight: 600;
  text-align: center;
  text-decoration: none;
  cursor: pointer;
}
.button.secondary, button.secondary { background: transparent; color: var(--accent); }
.or { text-align: center; color: var(--muted); margin: 1.25rem 0 0; }
.alert {
  padding: 0.75rem 1rem;
  border-radius: 8px;
  background: var(--error-background);
  color: var(--error-text);
  margin-bottom: 1rem;
}
.muted { color: var(--muted); }
a { color: var(--accent); }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: 0.4rem 0.5rem; border-bottom: 1px solid var(--border); }
th { color: var(--muted); font-weight: 600; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.9em; }
ul.links { padding-left: 1.2rem; }
footer { margin-top: 2rem; font-size: 0.85rem; color: var(--muted); }

/* The console: a bar with the navigation, then a wide page of lists and forms. */
body.console { display: block; padding: 0; }
.console .bar {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 0.4rem 1rem;
  padding: 0.6rem 1rem;
  background: var(--card);
  border-bottom: 1px solid var(--border);
}
.console .bar .brand { font-size: 1.25rem; font-weight: 700; color: var(--accent); text-decoration: none; }
.console .bar nav ul { display: flex; flex-wrap: wrap; gap: 0.2rem 0.9rem; list-style: none; margin: 0; padding: 0; }
.console .bar nav a { text-decoration: none; padding: 0.2rem 0; }
.console .bar nav a[aria-current="page"] { font-weight: 700; text-decoration: underline; }
.console .bar .who { margin-left: auto; color: var(--muted); font-size: 0.9rem; }
.console .bar form { display: inline; }
.console .bar form button { margin: 0; padding: 0.25rem 0.6rem; width: auto; display: inline-block; }
.console main {
  max-width: 72rem;
  margin: 1.25rem auto;
  border-radius: 12px;
  padding: 1.25rem;
}
.console h1 { font-size: 1.35rem; }
.console section { margin-top: 1.5rem; }
.console button, .console .button { display: inline-block; width: auto; margin-top: 0.75rem; }
.console button.small { margin: 0; padding: 0.3rem 0.6rem; font-weight: 400; }
.console input[type="number"], .console input[type="date"], .console input[type="search"],
.console select, .console textarea {
  width: 100%;
  padding: 0.5rem 0.6rem;
  border: 1px solid var(--border);
  border-radius: 8px;
  background: transparent;
  color: inherit;
  font: inherit;
}
.console select option { background: var(--card); color: var(--text); }
.console .fields { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 0 1rem; }
.console .inline { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: flex-end; }
.console .inline > * { flex: 1 1 12rem; }
.console .inline > button { flex: 0 0 auto; }
.console .table { overflow-x: auto; position: relative; }
.console td form { margin: 0; }
.console .tabs { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.5rem 0 1rem; padding: 0; list-style: none; }
.console .tabs a { padding: 0.3rem 0.7rem; border: 1px solid var(--border); border-radius: 999px; text-decoration: none; }
.console .tabs a[aria-current="page"] { background: var(--accent); color: var(--accent-text); border-color: var(--accent); }
.console .pager { display: flex; gap: 1rem; align-items: center; margin-top: 0.75rem; }
.console .notice {
  padding: 0.75rem 1rem;
  border-radius: 8px;
  border: 1px solid var(--accent);
  margin-bottom: 1rem;
}
.console .status-overdue { color: var(--error-text); font-weight: 600; }
.console dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; margin: 0.5rem 0; }
.console dt { color: var(--muted); }
.console dd { margin: 0; }
.console ul.plain { list-style: none; margin: 0; padding: 0; }
.console .change-fields td { overflow-wrap: anywhere; }
.console .change-fields td:first-child { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.console .scan video { width: 100%; max-width: 24rem; border-radius: 8px; display: block; margin-top: 0.5rem; }
.console .visually-hidden {
  position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
@media (max-width: 40rem) {
  .console main { margin: 0; border-radius: 0; border-left: 0; border-right: 0; padding: 1rem; }
  .console .bar .who { margin-left: 0; width: 100%; }
  .console dl { grid-template-columns: 1fr; }
  .console dd { margin-bottom: 0.4rem; overflow-wrap: anywhere; }
}
`;

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
`;

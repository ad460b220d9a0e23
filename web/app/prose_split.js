// prose_split.js — a lesson's prose split at its cells' places (`<!-- cell: A -->` lines), without rendering:
// markdown.js renders the parts, notebook.js turns them into notebook cells.
//   splitCells(prose) -> [{ markdown }, { cell: 'A' }, { markdown }, ...]   (empty markdown parts dropped)
const CELL_LINE = /^[ \t]*<!--\s*cell:\s*([A-Za-z0-9_-]+)\s*-->[ \t]*$/gm;

export function splitCells(prose) {
  const parts = [];
  let last = 0;
  for (const m of prose.matchAll(CELL_LINE)) {
    parts.push({ markdown: prose.slice(last, m.index) });
    parts.push({ cell: m[1] });
    last = m.index + m[0].length;
  }
  parts.push({ markdown: prose.slice(last) });
  return parts.filter((p) => p.cell || p.markdown.trim());
}

// markdown.js — lesson prose to HTML: markdown-it (CommonMark + tables, raw HTML off) with math,
// `$...$` inline and `$$...$$` display, rendered by KaTeX, and two plugins for Chinese text:
// markdown-it-cjk-friendly (`**…**` closes next to CJK punctuation, as in 「**先預測：**這個…」, which plain
// CommonMark leaves as raw asterisks) and markdown-it-cjk-breaks (a line break in the source between two
// CJK characters joins them instead of becoming a space). The libraries are served by this site from
// node_modules, so no other origin is ever asked; the plugins import get-east-asian-width by its bare name,
// which index.html / embed.html map to node_modules with an import map (the bundle resolves it itself).
// scripts/bundle.js renders every lesson's prose ahead with proseParts (web/bundle/lessons/), so a page
// loads this module (and the two libraries, ~0.4 MB of script) only when that is missing (cell_runner.js's loadLessonPage).
//
//   import { proseParts, renderMarkdown, splitCells } from './markdown.js';
//   splitCells(prose)  -> [{ markdown }, { cell: 'A' }, { markdown }, ...]  (at `<!-- cell: A -->` lines)
//   renderMarkdown(md) -> HTML string (a KaTeX error shows in red in place, never throws)
//   proseParts(prose)  -> [{ html }, { cell: 'A' }, { html }, ...]  (the two above)
import MarkdownIt from '../../node_modules/markdown-it/dist/browser/markdown-it.esm.min.mjs';
import katex from '../../node_modules/katex/dist/katex.mjs';
import cjkFriendly from '../../node_modules/markdown-it-cjk-friendly/dist/index.js';
import cjkBreaks from '../../node_modules/markdown-it-cjk-breaks/index.mjs';
import { splitCells } from './prose_split.js';

function renderMath(tex, displayMode) {
  return katex.renderToString(tex, { displayMode, throwOnError: false, output: 'htmlAndMathml' });
}

// Inline `$...$`: no space after the opening $ nor before the closing one, no digit right after
// the closing one (so "$5 and $6" stays text); `\$` is a literal dollar.
function mathInline(state, silent) {
  const src = state.src;
  const start = state.pos;
  if (src[start] !== '$' || src[start + 1] === '$') return false;
  if (start + 1 >= state.posMax || /\s/.test(src[start + 1])) return false;
  let end = start + 1;
  for (;;) {
    end = src.indexOf('$', end);
    if (end < 0 || end >= state.posMax) return false;
    if (src[end - 1] !== '\\') break;
    end++;
  }
  if (/\s/.test(src[end - 1]) || /\d/.test(src[end + 1] ?? '')) return false;
  if (!silent) {
    const token = state.push('math_inline', 'math', 0);
    token.content = src.slice(start + 1, end);
  }
  state.pos = end + 1;
  return true;
}

// Display math: a block that opens with `$$` at the start of a line and closes with `$$`.
function mathBlock(state, startLine, endLine, silent) {
  let pos = state.bMarks[startLine] + state.tShift[startLine];
  let max = state.eMarks[startLine];
  if (state.src.slice(pos, pos + 2) !== '$$') return false;
  let first = state.src.slice(pos + 2, max);
  let content = null;
  let line = startLine;
  if (first.trim().endsWith('$$')) {
    content = first.trim().slice(0, -2);
  } else {
    const lines = [first];
    for (line = startLine + 1; line < endLine; line++) {
      pos = state.bMarks[line] + state.tShift[line];
      max = state.eMarks[line];
      const text = state.src.slice(pos, max);
      if (text.trim().endsWith('$$')) {
        lines.push(text.trim().slice(0, -2));
        content = lines.join('\n');
        break;
      }
      lines.push(text);
    }
    if (content === null) return false;
  }
  if (silent) return true;
  state.line = line + 1;
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  token.content = content;
  token.map = [startLine, state.line];
  return true;
}

const md = new MarkdownIt({ html: false, linkify: false, typographer: false }).use(cjkFriendly);
// markdown-it-cjk-breaks decides each soft break from the text just before and after it. Its own pass reads a break
// it has already removed as an empty text token and then throws (two breaks with only code or math between them),
// so its rule runs here on one break at a time, with the nearest non-empty text on either side.
let cjkBreakRule = null;
cjkBreaks({ core: { ruler: { push: (name, rule) => { cjkBreakRule = rule; } } } });
md.core.ruler.push('cjk_breaks', (state) => {
  for (const block of state.tokens) {
    if (block.type !== 'inline') continue;
    block.children.forEach((token, i, kids) => {
      if (token.type !== 'softbreak') return;
      const before = kids.slice(0, i).reverse().find((t) => t.type === 'text' && t.content);
      const after = kids.slice(i + 1).find((t) => t.type === 'text' && t.content);
      cjkBreakRule({ tokens: [{ type: 'inline', children: [before, token, after].filter(Boolean) }] });
    });
  }
});
md.inline.ruler.after('escape', 'math_inline', mathInline);
md.block.ruler.after('blockquote', 'math_block', mathBlock, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
md.renderer.rules.math_inline = (tokens, i) => renderMath(tokens[i].content, false);
md.renderer.rules.math_block = (tokens, i) => `<div class="math-display">${renderMath(tokens[i].content, true)}</div>\n`;

export function renderMarkdown(source) {
  return md.render(source);
}

export { splitCells };

export function proseParts(prose) {
  return splitCells(prose).map((p) => (p.cell ? { cell: p.cell } : { html: renderMarkdown(p.markdown) }));
}

// catalogue.js — the course's table of contents: chapters M01–M10 and their pages, with titles in
// every language the playground speaks (docs lessons-plan.md). The navigator is drawn from this
// list; a page's content lives in lessons/<id>/ (format: web/app/README.md).
export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'zh-TW', label: '繁體中文' },
];

const page = (id, en, zh) => ({ id, title: { en, 'zh-TW': zh } });

export const CHAPTERS = [
  { id: 'M01', pages: [
    page('M01', 'The PT2E pipeline', 'PT2E 量化流程'),
    page('M01-1', 'The stem: conv → bn → relu', '主幹：conv → bn → relu'),
    page('M01-2', 'What prepare / convert change', 'prepare 與 convert 改了什麼'),
    page('M01-3', 'The three config switches', '設定裡的三個開關'),
  ] },
  { id: 'M02', pages: [
    page('M02', 'Observers by hand', '親手放置觀察器'),
    page('M02-1', 'Observer zoo', '觀察器大觀園'),
    page('M02-2', 'Fake quant', '偽量化'),
    page('M02-3', 'Why a shared dequantize fails', '為什麼共用的反量化會出問題'),
  ] },
  { id: 'M03', pages: [
    page('M03', 'Who decides where observers go', '誰決定觀察器放在哪裡'),
    page('M03-1', 'Labels and prepare_pt2e', '標註與 prepare_pt2e'),
    page('M03-2', "Reading XNNPACKQuantizer's labels", '解讀 XNNPACKQuantizer 的標註'),
    page('M03-3', 'A rule-based quantizer', '規則式量化器'),
    page('M03-4', 'Shared qparams', '共用量化參數'),
    page('M03-5', 'Derived and FixedQParams', '推導式與固定的量化參數'),
    page('M03-6', 'Partial quantization and composition', '部分量化與組合'),
    page('M03-7', 'Backend configuration APIs', '後端設定 API'),
  ] },
  { id: 'M04', pages: [
    page('M04', 'Batch norm and fusion', '批次正規化與融合'),
    page('M04-1', 'Folding BN for PTQ', 'PTQ 的 BN 折疊'),
    page('M04-2', 'BN on the QAT graph', 'QAT 圖上的 BN'),
  ] },
  { id: 'M05', pages: [page('M05', 'Which layers stay fp32', '哪些層保留 fp32')] },
  { id: 'M06', pages: [page('M06', 'QAT training', 'QAT 訓練')] },
  { id: 'M07', pages: [page('M07', 'After convert: the integer picture', 'convert 之後：整數運算的全貌')] },
  { id: 'M08', pages: [page('M08', "ExecuTorch's XNNPACKQuantizer and lowering", 'ExecuTorch 的 XNNPACKQuantizer 與 lowering')] },
  { id: 'M09', pages: [page('M09', 'Another backend: X86 Inductor', '另一個後端：X86 Inductor')] },
  { id: 'M10', pages: [
    page('M10', 'A quantizer for a fictional VPU', '為虛構的 VPU 設計量化器'),
    page('M10-1', 'Integer-only simulation', '純整數模擬'),
  ] },
];

export const ALL_PAGES = CHAPTERS.flatMap((c) => c.pages);

export function findPage(id) {
  return ALL_PAGES.find((p) => p.id === id) ?? null;
}

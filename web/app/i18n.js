// i18n.js — the page's own words (buttons, headings, messages) in every language of the course.
// Lesson text is not here: each lesson has its own prose per language (lessons/<id>/prose.<lang>.md).
export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'zh-TW', label: '繁體中文' },
];

const STRINGS = {
  en: {
    title: 'PT2E Playground',
    chapter: 'Chapter',
    loading: 'loading the engine…',
    ready: 'engine ready (WebAssembly SIMD128)',
    load_failed: 'The engine could not be loaded',
    home_intro: 'Learn PyTorch 2 Export (PT2E) quantization by running it: a C++ engine with torch-exact numerics runs live in this page (WebAssembly), with no install and no server beyond this one.',
    home_pick: 'Pick a lesson on the left. Every page asks a question, runs the engine, and checks the answer.',
    demo_title: 'Engine check: torch.randn(20000) after manual_seed(0)',
    demo_caption: 'A Dear ImGui view drawn by the same wasm module (WebGL2). Hover a bar to see its bin.',
    not_written: 'not written yet',
    progress: 'checks passed when you last ran this lesson (kept in this browser)',
    run: 'Run',
    running: 'running…',
    reset: 'Reset',
    passed: 'passed',
    failed: 'failed',
    language: 'Language',
    run_all: 'Run all',
    exercise: 'exercise',
    torch_code: 'The same step in PyTorch',
    loading_lesson: 'loading the lesson…',
    lesson_failed: 'Could not load lesson',
    index_failed: 'Could not load the list of lessons',
    embed_missing: 'embed.html needs ?lesson=<id>, e.g. embed.html?lesson=M01&lang=en',
  },
  'zh-TW': {
    title: 'PT2E 練習場',
    chapter: '章節',
    loading: '正在載入引擎…',
    ready: '引擎已就緒（WebAssembly SIMD128）',
    load_failed: '無法載入引擎',
    home_intro: '動手執行來學習 PyTorch 2 Export（PT2E）量化：一個數值與 torch 完全一致的 C++ 引擎直接在這個頁面裡執行（WebAssembly），不用安裝，也不需要其他伺服器。',
    home_pick: '從左側選一課開始。每一頁都會先提出問題，執行引擎，再檢查答案。',
    demo_title: '引擎檢查：manual_seed(0) 之後的 torch.randn(20000)',
    demo_caption: '由同一個 wasm 模組繪製的 Dear ImGui 視圖（WebGL2）。把滑鼠移到長條上可看到該區間。',
    not_written: '尚未完成',
    progress: '上次執行這一課時通過的檢查（只存在這個瀏覽器裡）',
    run: '執行',
    running: '執行中…',
    reset: '還原',
    passed: '通過',
    failed: '失敗',
    language: '語言',
    run_all: '全部執行',
    exercise: '練習',
    torch_code: '同一步驟的 PyTorch 程式碼',
    loading_lesson: '正在載入課程…',
    lesson_failed: '無法載入課程',
    index_failed: '無法載入課程清單',
    embed_missing: 'embed.html 需要 ?lesson=<id>，例如 embed.html?lesson=M01&lang=zh-TW',
  },
};

export function t(lang, key) {
  return STRINGS[lang]?.[key] ?? STRINGS.en[key] ?? key;
}

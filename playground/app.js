// The playground page: sends the input to /playground/api/* (the library's public API on the
// server) and draws what comes back. No dependencies, nothing loaded from elsewhere.
const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...kids) => {
  const e = Object.assign(document.createElement(tag), props);
  for (const k of kids) e.append(k);
  return e;
};

/** A JSON path as the library prints it: messages[1].content[0]. */
function fmtPath(path) {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out === '' ? seg : `.${seg}`;
  return out === '' ? '(root)' : out;
}

/** JSON drawn as text whose every value is a span carrying its path, so places can be marked. */
function renderJson(value, path = [], indent = '') {
  const span = el('span', { className: 'v' });
  span.dataset.path = fmtPath(path);
  if (Array.isArray(value) || (value && typeof value === 'object')) {
    const isArr = Array.isArray(value);
    const entries = isArr ? value.map((v, i) => [i, v]) : Object.entries(value);
    span.append(isArr ? '[' : '{');
    entries.forEach(([k, v], i) => {
      span.append(`\n${indent}  ${isArr ? '' : `${JSON.stringify(k)}: `}`);
      span.append(renderJson(v, [...path, k], `${indent}  `));
      if (i < entries.length - 1) span.append(',');
    });
    span.append(entries.length ? `\n${indent}${isArr ? ']' : '}'}` : isArr ? ']' : '}');
  } else span.append(JSON.stringify(value));
  return span;
}

function show(pre, value) {
  pre.replaceChildren(value === undefined ? '' : renderJson(value));
}

async function call(path, body) {
  const res = await fetch(`/playground/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return res.json();
}

const state = { input: '', base64: false, view: null, steps: [], step: 0, marked: null };

function inputBody() {
  return { input: state.input, base64: state.base64 };
}

function lossItem(loss, onPick) {
  const b = el('button', { type: 'button', className: 'linkish', textContent: fmtPath(loss.path) });
  b.addEventListener('click', () => onPick(loss));
  return el('li', { className: loss.action }, el('span', { className: 'action', textContent: `${loss.action} ` }), el('code', { textContent: loss.code }), ' at ', b, el('span', { textContent: `: ${loss.message}` }));
}

/** Marks the places of a target's losses in the source (dropped, approximated, stashed). */
function markLosses(target) {
  state.marked = target.format;
  $('marking').textContent = `— losses into ${target.format} marked`;
  for (const s of $('source').querySelectorAll('.lost, .approx, .stashed')) {
    s.classList.remove('lost', 'approx', 'stashed');
    s.removeAttribute('title');
  }
  for (const loss of target.losses) {
    const s = placeOf(loss.path);
    if (!s) continue;
    s.classList.add(loss.action === 'dropped' ? 'lost' : loss.action === 'approximated' ? 'approx' : 'stashed');
    s.title = `${loss.action} ${loss.code}: ${loss.message}`;
  }
}

/**
 * The source span of a path. Some codecs report losses at the canonical model's path (`parts`
 * where the source says `content`); those, and paths below what the source has, mark the
 * nearest place the source does have.
 */
function placeOf(path) {
  const find = (p) => $('source').querySelector(`[data-path="${CSS.escape(fmtPath(p))}"]`);
  const alt = path.map((seg) => (seg === 'parts' ? 'content' : seg));
  for (let n = path.length; n > 0; n--) {
    const s = find(path.slice(0, n)) ?? find(alt.slice(0, n));
    if (s) return s;
  }
  return null;
}

function focusPath(path) {
  const s = placeOf(path);
  if (!s) return;
  s.scrollIntoView({ block: 'center' });
  s.classList.add('focus');
  setTimeout(() => s.classList.remove('focus'), 1500);
}

function renderTarget(t) {
  const sec = el('section', { className: 'target' });
  sec.dataset.format = t.format;
  sec.append(el('h3', { textContent: t.format }));
  const mark = el('button', { type: 'button', textContent: `Mark these losses in the source` });
  mark.addEventListener('click', () => markLosses(t));
  const summary = el('p', { className: 'losses-summary', textContent: t.losses.length === 0 ? 'No losses.' : `${t.losses.length} loss${t.losses.length === 1 ? '' : 'es'}:` });
  sec.append(summary);
  if (t.losses.length > 0) {
    sec.append(el('ul', { className: 'losses' }, ...t.losses.map((l) => lossItem(l, (x) => { markLosses(t); focusPath(x.path); }))), mark);
  }
  if (t.error) sec.append(el('p', { className: 'error', textContent: t.error.message }));
  if (t.roundTrip) {
    const rt = t.roundTrip;
    const text = rt.error ? `Round trip ${t.format} → back: fails (${rt.error})` : rt.exact ? `Round trip ${t.format} → back: exact` : `Round trip ${t.format} → back: differs at ${rt.differences.map(fmtPath).join(', ')}`;
    sec.append(el('p', { className: `roundtrip ${rt.exact ? 'exact' : 'differs'}`, textContent: text }));
  }
  if (t.value !== undefined) {
    const pre = el('pre', { className: 'json', tabIndex: 0 });
    show(pre, t.value);
    sec.append(el('details', { open: true }, el('summary', { textContent: `${t.format} output` }), pre));
  }
  return sec;
}

function renderIssues(issues) {
  $('issues-panel').hidden = !issues || issues.length === 0;
  $('issues').replaceChildren(...(issues ?? []).map((i) => {
    const b = el('button', { type: 'button', className: 'linkish', textContent: fmtPath(i.path) });
    b.addEventListener('click', () => focusPath(i.path));
    return el('li', {}, b, el('span', { textContent: `: ${i.message}` }));
  }));
  for (const i of issues ?? []) {
    const s = $('source').querySelector(`[data-path="${CSS.escape(fmtPath(i.path))}"]`);
    if (s) { s.classList.add('invalid'); s.title = i.message; }
  }
}

function describe(d) {
  if (!d.best) return d.closest ? `No dialect accepts this input; the closest is ${d.closest.format} ${d.closest.kind}.` : 'This does not look like any dialect.';
  const alt = d.ambiguous ? ` It also fits: ${d.candidates.slice(1).map((c) => `${c.format} ${c.kind} (${c.confidence})`).join(', ')}.` : '';
  return `Detected ${d.best.format} ${d.best.kind} (confidence ${d.best.confidence}, ${d.layout}).${alt}`;
}

async function run() {
  state.input = state.base64 ? state.input : $('input').value;
  const body = { ...inputBody(), preserve: $('preserve').checked, strict: $('strict').checked };
  if ($('from').value) body.from = $('from').value;
  if ($('kind').value) body.kind = $('kind').value;
  const view = await call('convert', body);
  state.view = view;
  $('detected').textContent = view.detection ? describe(view.detection) : '';
  const source = view.source;
  $('source-panel').hidden = false;
  const isStream = view.detection && view.detection.layout !== 'json';
  if (!isStream) {
    let parsed;
    try { parsed = JSON.parse(state.input); } catch { parsed = undefined; }
    show($('source'), parsed);
  } else $('source').textContent = state.base64 ? '(binary event-stream capture)' : state.input;
  $('marking').textContent = '';
  renderIssues(view.issues);
  $('targets-panel').hidden = !Array.isArray(view.targets) || isStream;
  $('stream-panel').hidden = !(isStream && Array.isArray(view.targets));
  if (!Array.isArray(view.targets)) return;
  if (source && codecKindIsStream(source.kind)) return setupStream(view.targets, source.format);
  $('targets').replaceChildren(...view.targets.map(renderTarget));
  const first = view.targets.find((t) => t.format === state.marked) ?? view.targets.find((t) => t.format === 'openai-chat') ?? view.targets[0];
  if (first) markLosses(first);
}

const codecKindIsStream = (k) => k === 'stream';

function setupStream(targets, from) {
  const sel = $('stream-to');
  const keep = sel.value;
  sel.replaceChildren(...targets.map((f) => el('option', { value: f, textContent: f })));
  if (targets.includes(keep)) sel.value = keep;
  state.from = from;
  return loadStream();
}

async function loadStream() {
  const view = await call('transcode', { ...inputBody(), from: state.from, to: $('stream-to').value, preserve: $('preserve').checked });
  renderIssues(view.issues);
  state.steps = view.steps ?? [];
  state.step = 0;
  drawStep();
  show($('accumulated'), view.accumulated?.value);
  $('acc-losses').replaceChildren(...(view.accumulated?.losses ?? []).map((l) => lossItem(l, () => {})));
}

function drawStep() {
  const n = state.steps.length;
  const s = state.steps[state.step];
  $('step').textContent = n === 0 ? 'no events' : `event ${state.step + 1} of ${n}${s && s.source === null ? ' (end of input)' : ''}`;
  show($('step-source'), s ? (s.source ?? '(end of input: what the target says at the end)') : undefined);
  show($('step-target'), s ? s.target : undefined);
  $('step-losses').replaceChildren(...(s?.losses ?? []).map((l) => lossItem(l, () => {})));
  $('prev').disabled = state.step <= 0;
  $('next').disabled = state.step >= n - 1;
}

function loadFile(file) {
  const reader = new FileReader();
  reader.onload = () => {
    const bytes = new Uint8Array(reader.result);
    const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    // Binary (event-stream) captures go as base64; text as it is.
    const binary = bytes.some((b) => b === 0) || text.includes('\uFFFD');
    state.base64 = binary;
    if (binary) {
      let s = '';
      for (const b of bytes) s += String.fromCharCode(b);
      state.input = btoa(s);
      $('input').value = `(binary file ${file.name}, ${bytes.length} bytes)`;
    } else {
      state.input = text;
      $('input').value = text;
    }
    run();
  };
  reader.readAsArrayBuffer(file);
}

async function memoryInit(info) {
  if (!info.memory) {
    $('memory-status').textContent = 'No memory store is configured (start with --store sqlite:./memory.db to browse one).';
    return;
  }
  $('memory-browse').hidden = false;
  for (const f of info.messageFormats) $('mem-format').append(el('option', { value: f, textContent: `${f} messages` }));
  const { actors } = await call('memory/actors', {});
  $('memory-status').textContent = `${actors.length} actor${actors.length === 1 ? '' : 's'} in the store.`;
  $('actors').replaceChildren(...actors.map((a) => pick(a.actorId, () => showSessions(a.actorId))));
}

function pick(text, onPick) {
  const b = el('button', { type: 'button', textContent: text });
  b.addEventListener('click', onPick);
  return el('li', {}, b);
}

async function showSessions(actorId) {
  const { sessions } = await call('memory/sessions', { actorId });
  $('sessions').replaceChildren(...sessions.map((s) => pick(s.sessionId, () => { state.session = { actorId, sessionId: s.sessionId }; showSession(); })));
}

async function showSession() {
  if (!state.session) return;
  const format = $('mem-format').value;
  const out = await call('memory/session', { ...state.session, format });
  show($('session'), out.events ?? out.messages ?? out.issues);
  $('mem-losses').replaceChildren(...(out.losses ?? []).map((l) => lossItem(l, () => {})));
}

async function init() {
  const info = await (await fetch('/playground/api/formats')).json();
  for (const f of info.formats) $('from').append(el('option', { value: f.id, textContent: f.id }));
  $('run').addEventListener('click', () => { state.base64 = false; run(); });
  $('input').addEventListener('input', () => { state.base64 = false; });
  for (const id of ['preserve', 'strict', 'from', 'kind']) $(id).addEventListener('change', () => state.input && run());
  $('file').addEventListener('change', (e) => e.target.files[0] && loadFile(e.target.files[0]));
  $('input').addEventListener('dragover', (e) => e.preventDefault());
  $('input').addEventListener('drop', (e) => { e.preventDefault(); const f = e.dataTransfer.files[0]; if (f) loadFile(f); });
  $('stream-to').addEventListener('change', loadStream);
  $('prev').addEventListener('click', () => { state.step = Math.max(0, state.step - 1); drawStep(); });
  $('next').addEventListener('click', () => { state.step = Math.min(state.steps.length - 1, state.step + 1); drawStep(); });
  $('mem-format').addEventListener('change', showSession);
  await memoryInit(info);
  document.body.dataset.ready = 'true';
}

init();

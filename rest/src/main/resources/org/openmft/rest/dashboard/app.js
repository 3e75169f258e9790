// The OpenMFT dashboard: plain JavaScript, no build step, no library. It polls the REST API of the
// server that served it (same origin; the browser sends the Basic credentials it was asked for).
'use strict';

const IBM = '/ibmmq/rest/v2/admin/mft';
const OPENMFT = '/openmft/rest/v1';
const POLL_MS = 2000;
const HISTORY_MS = 10000;
const CHART_POINTS = 300; // ten minutes at one point every two seconds

const throughput = []; // [time ms, bytes per second]

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (cls) e.className = cls;
  return e;
}

function row(cells, cls) {
  const tr = el('tr', null, cls);
  for (const c of cells) {
    tr.appendChild(c instanceof Node ? c : el('td', c));
  }
  return tr;
}

function td(node) {
  const t = el('td');
  t.appendChild(node);
  return t;
}

function bytes(n) {
  if (n === undefined || n === null || n < 0) return '';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (i === 0 ? n : n.toFixed(1)) + ' ' + units[i];
}

function duration(seconds) {
  if (!isFinite(seconds) || seconds < 0) return '';
  seconds = Math.round(seconds);
  const h = Math.floor(seconds / 3600), m = Math.floor(seconds / 60) % 60, s = seconds % 60;
  return (h ? h + 'h ' : '') + (h || m ? m + 'm ' : '') + s + 's';
}

function time(iso) {
  return iso ? new Date(iso).toLocaleString() : '';
}

async function getJson(path) {
  const r = await fetch(path, { headers: { 'Accept': 'application/json' }, cache: 'no-store' });
  const body = await r.json();
  if (!r.ok) {
    const e = body && body.error && body.error[0];
    throw new Error(e ? e.message : 'HTTP ' + r.status);
  }
  return body;
}

function problem(text) {
  const p = document.getElementById('problem');
  p.hidden = !text;
  p.textContent = text || '';
}

function fill(id, rows) {
  const body = document.querySelector('#' + id + ' tbody');
  body.replaceChildren(...rows);
}

async function agents() {
  const data = await getJson(IBM + '/agent?attributes=*');
  fill('agents', data.agent.map(a => {
    const g = a.general || {}, q = a.qmgrConnection || {};
    return row([
      el('td', a.name, 'agent-name'),
      el('td', a.state, 'state-' + a.state),
      g.statusAge || '',
      q.qmgrName || '',
      (g.sourceTransfers || 0) + ' / ' + (g.destinationTransfers || 0) + ' / ' + (g.queuedTransfers || 0)
    ]);
  }));
}

async function monitors() {
  const data = await getJson(IBM + '/monitor?attributes=*');
  fill('monitors', data.monitor.map(m => {
    const g = m.general || {}, r = m.resource || {};
    return row([
      el('td', m.name, 'monitor-name'),
      m.agentName,
      m.type,
      el('td', m.state, 'state-' + m.state),
      r.name || '',
      g.pollInterval !== undefined ? g.pollInterval + ' ' + g.pollIntervalUnit : ''
    ]);
  }));
}

async function running() {
  const [stored, live] = await Promise.all([
    getJson(IBM + '/transfer?limit=200&state=inProgress'),
    getJson(OPENMFT + '/progress')
  ]);
  const started = await getJson(IBM + '/transfer?limit=200&state=started');
  const progress = new Map(live.progress.map(p => [p.id, p]));
  const transfers = started.transfer.concat(stored.transfer);
  let total = 0;
  fill('running', transfers.map(t => {
    const p = progress.get(t.id) || {};
    const done = p.totalItems > 0 ? (p.currentItem - 1 + (p.currentSize > 0 ? p.currentTransferred / p.currentSize : 0)) / p.totalItems : 0;
    const bar = el('span', null, 'bar');
    const fillBar = el('span');
    fillBar.style.width = Math.max(0, Math.min(100, done * 100)).toFixed(1) + '%';
    bar.appendChild(fillBar);
    const rate = p.bytesPerSecond || 0;
    total += rate;
    const left = p.totalItems > 0 && done > 0 && p.seconds > 0 ? p.seconds * (1 - done) / done : NaN;
    const tr = row([
      el('td', t.id, 'id'),
      (t.sourceAgent.name || '?') + ' \u2192 ' + (t.destinationAgent.name || '?'),
      td(bar),
      bytes(p.bytesSent !== undefined ? p.bytesSent : (t.statistics || {}).bytesSent),
      rate ? bytes(rate) + '/s' : '',
      duration(left),
      p.currentSource || ''
    ], 'clickable');
    tr.addEventListener('click', () => detail(t.id));
    return tr;
  }));
  throughput.push([Date.now(), total]);
  while (throughput.length > CHART_POINTS) throughput.shift();
  chart();
}

// A small hand-made line chart of the summed rate of the running transfers.
function chart() {
  const c = document.getElementById('throughput');
  const g = c.getContext('2d');
  const w = c.width, h = c.height, pad = 30;
  g.clearRect(0, 0, w, h);
  g.strokeStyle = '#c9ced6';
  g.beginPath(); g.moveTo(pad, 5); g.lineTo(pad, h - pad); g.lineTo(w - 5, h - pad); g.stroke();
  const max = Math.max(1, ...throughput.map(p => p[1]));
  g.fillStyle = '#5b6575';
  g.font = '11px sans-serif';
  g.fillText(bytes(max) + '/s', pad + 4, 14);
  g.fillText('last 10 min', w - 70, h - 10);
  if (throughput.length < 2) return;
  const t0 = Date.now() - CHART_POINTS * POLL_MS;
  g.strokeStyle = '#2f6fd6';
  g.lineWidth = 2;
  g.beginPath();
  throughput.forEach((p, i) => {
    const x = pad + (w - pad - 5) * Math.max(0, (p[0] - t0)) / (CHART_POINTS * POLL_MS);
    const y = h - pad - (h - pad - 10) * p[1] / max;
    if (i === 0) g.moveTo(x, y); else g.lineTo(x, y);
  });
  g.stroke();
}

async function history() {
  const f = new FormData(document.getElementById('filters'));
  const q = new URLSearchParams({ limit: '100' });
  for (const [k, v] of f.entries()) if (v) q.set(k, v);
  const data = await getJson(IBM + '/transfer?' + q);
  fill('history', data.transfer.map(t => {
    const s = t.statistics || {};
    const tr = row([
      el('td', t.id, 'id'),
      (t.job || {}).name || '',
      (t.sourceAgent.name || '?') + ' \u2192 ' + (t.destinationAgent.name || '?'),
      el('td', t.status.state, 'state-' + t.status.state),
      s.numberOfFiles !== undefined ? s.numberOfFiles : '',
      bytes(s.bytesSent),
      time(s.startTime),
      time(s.endTime)
    ], 'clickable');
    tr.addEventListener('click', () => detail(t.id));
    return tr;
  }));
}

async function detail(id) {
  const data = await getJson(IBM + '/transfer/' + encodeURIComponent(id) + '?attributes=*');
  const t = data.transfer[0];
  document.getElementById('detail').hidden = false;
  document.getElementById('detail-id').textContent = t.id;
  document.getElementById('detail-summary').textContent = (t.sourceAgent.name || '?') + ' \u2192 '
    + (t.destinationAgent.name || '?') + ', ' + t.status.state
    + (t.status.description ? ': ' + t.status.description : '')
    + (t.originator && t.originator.userId ? ', requested by ' + t.originator.userId : '');
  const items = (t.transferSet || {}).item || [];
  fill('items', items.map(i => row([
    i.source.name, i.destination.name || '', bytes(i.source.size), i.mode || '',
    el('td', i.status.state, 'state-' + i.status.state), i.status.description || ''
  ])));
}

async function safely(what) {
  try {
    await what();
    problem('');
    document.getElementById('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
  } catch (e) {
    problem(e.message);
  }
}

document.getElementById('filters').addEventListener('submit', e => {
  e.preventDefault();
  safely(history);
});

function every(ms, what) {
  safely(what);
  setInterval(() => safely(what), ms);
}

every(POLL_MS * 2, agents);
every(HISTORY_MS, monitors);
every(POLL_MS, running);
every(HISTORY_MS, history);

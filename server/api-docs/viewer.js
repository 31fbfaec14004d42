// Draws the API document (/api/docs/openapi.json): one section per resource, one entry per call with its
// access, parameters, body, answer and refusals; the box above filters by address, name or permission.
(async () => {
  const root = document.getElementById('root');
  const filter = document.getElementById('filter');
  const el = (tag, attrs, ...children) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  };
  const json = (v) => el('pre', {}, JSON.stringify(v, null, 2));
  let doc;
  try {
    const r = await fetch('/api/docs/openapi.json');
    if (!r.ok) throw new Error(`HTTP ${r.status}`);
    doc = await r.json();
  } catch (e) {
    root.replaceChildren(el('p', { class: 'empty' }, `接口文档加载失败：${e.message}`));
    return;
  }
  const byTag = new Map(doc.tags.map((t) => [t.name, { tag: t, ops: [] }]));
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) byTag.get(op.tags[0])?.ops.push({ path, method: method.toUpperCase(), op });
  }
  const sections = [];
  for (const { tag, ops } of byTag.values()) {
    const entries = ops.map(({ path, method, op }) => {
      const ok = Object.entries(op.responses).find(([k]) => k !== 'default');
      const answer = ok?.[1].content ? Object.values(ok[1].content)[0].schema : undefined;
      const body = op.requestBody ? Object.entries(op.requestBody.content)[0] : undefined;
      const codes = op.responses.default.content['application/json'].schema.allOf[1].properties.code.enum;
      const d = el(
        'details',
        {},
        el(
          'summary',
          {},
          el('span', { class: `m ${method}` }, method),
          el('code', {}, path),
          op.summary,
          el('span', { class: 'access' }, op['x-access']),
        ),
        op.parameters ? el('h4', {}, '参数') : null,
        op.parameters
          ? el(
              'table',
              {},
              ...op.parameters.map((p) =>
                el(
                  'tr',
                  {},
                  el('td', {}, el('code', {}, p.name)),
                  el('td', {}, p.in),
                  el('td', {}, p.required ? '必填' : '可选'),
                  el('td', {}, el('code', {}, JSON.stringify(p.schema))),
                ),
              ),
            )
          : null,
        body ? el('h4', {}, `请求体（${body[0]}）`) : null,
        body ? json(body[1].schema) : null,
        el('h4', {}, `应答（${ok?.[0]}）`),
        answer ? json(answer) : el('p', {}, '文件'),
        el('h4', {}, '可能的拒绝'),
        el('pre', {}, op.responses.default.description),
      );
      d.dataset.search = `${method} ${path} ${op.summary} ${op['x-access']} ${op.operationId} ${codes.join(' ')}`.toLowerCase();
      return d;
    });
    const s = el('section', {}, el('h2', {}, `${tag.description}（${tag.name}）`), ...entries);
    sections.push({ s, entries });
  }
  const draw = () => {
    const q = filter.value.trim().toLowerCase();
    let shown = 0;
    for (const { s, entries } of sections) {
      let any = false;
      for (const d of entries) {
        const hit = !q || d.dataset.search.includes(q);
        d.hidden = !hit;
        any ||= hit;
        if (hit) shown++;
      }
      s.hidden = !any;
    }
    empty.hidden = shown > 0;
  };
  const empty = el('p', { class: 'empty' }, '没有匹配的接口');
  root.replaceChildren(...sections.map((x) => x.s), empty);
  filter.addEventListener('input', draw);
  draw();
})();

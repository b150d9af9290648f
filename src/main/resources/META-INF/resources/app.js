// The web page's behaviour. The token lives in sessionStorage only: it goes with this tab and never to a server
// other than this one. Every request carries it, exactly as an API client would; the service's problem+json answers
// are shown as messages.
(function () {
  'use strict';
  const KEY = 'meeting-reminders-token';
  let operator = false;
  let streamAbort = null;
  let chart = null;

  const token = () => sessionStorage.getItem(KEY);
  window.isOperator = () => operator && token() !== null;

  function say(text, kind) {
    const box = document.getElementById('messages');
    const line = document.createElement('p');
    line.className = kind || 'error';
    line.textContent = text;
    box.replaceChildren(line);
  }

  async function problemText(response) {
    try {
      const problem = await response.json();
      const fields = (problem.errors || []).map((e) => e.field + ' ' + e.message).join('; ');
      return (problem.title || response.status) + ': ' + (problem.detail || '') + (fields ? ' (' + fields + ')' : '');
    } catch (e) {
      return 'The service answered ' + response.status + '.';
    }
  }

  async function api(method, path, body) {
    const headers = { Authorization: 'Bearer ' + token() };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!response.ok) throw new Error(await problemText(response));
    return response.status === 204 ? null : response.json();
  }

  // Times as the browser's zone has them, and as the meeting's zone has them.
  function showTimes(root) {
    root.querySelectorAll('time[datetime]').forEach((el) => {
      const at = new Date(el.getAttribute('datetime'));
      if (isNaN(at)) return;
      const here = at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
      const zone = el.dataset.zone;
      let text = here;
      if (zone) {
        try {
          text += ' (' + at.toLocaleString(undefined, { timeStyle: 'short', dateStyle: 'short', timeZone: zone }) + ' ' + zone + ')';
        } catch (e) { /* a zone the browser does not know: its own time only */ }
      }
      el.textContent = text;
      el.title = el.getAttribute('datetime');
    });
  }

  document.addEventListener('htmx:configRequest', (event) => {
    if (!token()) { event.preventDefault(); return; }
    event.detail.headers.Authorization = 'Bearer ' + token();
  });
  document.addEventListener('htmx:responseError', async (event) => {
    const xhr = event.detail.xhr;
    let text = 'The service answered ' + xhr.status + '.';
    try {
      const problem = JSON.parse(xhr.responseText);
      text = problem.title + ': ' + problem.detail;
    } catch (e) { /* not a problem body */ }
    say(text);
  });
  document.addEventListener('htmx:afterRequest', (event) => {
    const verb = event.detail.requestConfig && event.detail.requestConfig.verb;
    if (event.detail.successful && verb === 'post') {
      say('Done: ' + event.detail.pathInfo.requestPath, 'info');
      htmx.trigger(document.body, 'refresh');
    }
  });
  document.addEventListener('htmx:afterSwap', (event) => showTimes(event.detail.target));

  async function signIn() {
    if (!token()) {
      document.getElementById('who').textContent = 'Not signed in.';
      document.getElementById('operator').hidden = true;
      return;
    }
    let overview = null;
    try {
      overview = await fetch('/admin/delivery', { headers: { Authorization: 'Bearer ' + token() } });
    } catch (e) { say('The service cannot be reached.'); return; }
    if (overview.status === 401) { say(await problemText(overview)); return; }
    operator = overview.ok;
    document.getElementById('who').textContent = operator ? 'Signed in as an operator.' : 'Signed in.';
    document.getElementById('operator').hidden = !operator;
    htmx.trigger(document.body, 'signed-in');
    if (operator) htmx.trigger(document.body, 'operator');
    stream();
    drawChart();
  }

  // EventSource cannot send a bearer token, so the stream is read with fetch.
  async function stream() {
    if (streamAbort) streamAbort.abort();
    const abort = new AbortController();
    streamAbort = abort;
    let response;
    try {
      response = await fetch('/reminders/stream', { headers: { Authorization: 'Bearer ' + token() }, signal: abort.signal });
    } catch (e) { return; }
    if (!response.ok) { say(await problemText(response)); return; }
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      let chunk;
      try { chunk = await reader.read(); } catch (e) { return; }
      // The service ended the stream (the token expired, or the page fell behind): open it again, unless the page
      // has moved on to another stream. An expired token is answered 401, which the page shows.
      if (chunk.done) {
        if (streamAbort === abort) setTimeout(stream, 1000);
        return;
      }
      buffer += chunk.value;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        event(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    }
  }

  function event(block) {
    let name = 'message';
    let data = '';
    block.split('\n').forEach((line) => {
      if (line.startsWith('event:')) name = line.slice(6).trim();
      if (line.startsWith('data:')) data += line.slice(5);
    });
    if (!data) return;
    const notification = JSON.parse(data);
    const item = document.createElement('li');
    item.className = name === 'reminder.failed' ? 'failed' : 'delivered';
    const at = document.createElement('time');
    at.setAttribute('datetime', notification.sendAt);
    at.dataset.zone = notification.timeZone;
    item.append((name === 'reminder.failed' ? 'FAILED: ' : 'Delivered: ') + notification.title + ', due ', at);
    document.getElementById('live').prepend(item);
    showTimes(item);
    refreshSoon();
  }

  // A delivery round's events arrive together, up to a hundred at once: the lists and the chart are read again once
  // for them all, not once each, which would spend the caller's request rate on its own page.
  let refreshPending = null;
  function refreshSoon() {
    if (refreshPending) return;
    refreshPending = setTimeout(() => {
      refreshPending = null;
      htmx.trigger(document.body, 'refresh');
      drawChart();
    }, 500);
  }

  async function drawChart() {
    const from = new Date(Date.now() - 3600 * 1000).toISOString();
    let page;
    try {
      page = await api('GET', '/reminders?status=DELIVERED&size=100&from=' + encodeURIComponent(from));
    } catch (e) { say(e.message); return; }
    const points = page.items.map((r) => ({
      label: new Date(r.deliveredAt).toLocaleTimeString(),
      lateness: new Date(r.deliveredAt) - new Date(r.sendAt),
    }));
    const data = { labels: points.map((p) => p.label), datasets: [{ label: 'lateness (ms)', data: points.map((p) => p.lateness) }] };
    if (chart) { chart.data = data; chart.update(); return; }
    chart = new Chart(document.getElementById('lateness'), { type: 'line', data, options: { animation: false } });
  }

  document.getElementById('login-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const value = document.getElementById('token').value.trim();
    if (!value) return;
    sessionStorage.setItem(KEY, value);
    document.getElementById('token').value = '';
    signIn();
  });
  document.getElementById('logout').addEventListener('click', () => {
    sessionStorage.removeItem(KEY);
    operator = false;
    if (streamAbort) streamAbort.abort();
    document.getElementById('my-reminders').replaceChildren();
    signIn();
  });
  document.getElementById('create-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const form = e.target;
    const body = {
      title: form.title.value,
      startsAt: new Date(form.startsAt.value).toISOString(),
      timeZone: form.timeZone.value || 'UTC',
      remindBefore: form.remindBefore.value.split(',').map((s) => s.trim()).filter((s) => s),
    };
    if (form.webhookUrl.value) body.webhookUrl = form.webhookUrl.value;
    try {
      const meeting = await api('POST', '/meetings', body);
      say('Created "' + meeting.title + '".', 'info');
      htmx.trigger(document.body, 'refresh');
    } catch (err) { say(err.message); }
  });
  document.getElementById('timeZone').value = Intl.DateTimeFormat().resolvedOptions().timeZone;
  signIn();
})();

// Draws docs/attention-timeline.svg: one permission request raised, reminded, escalated to the phone by
// a route that waits, and cleared (run after `npm run build`; `npm run docs:attention`). The reminder
// times come from the built-in policy itself, so the picture follows the defaults.
// `--check` writes nothing and exits 1 when the checked-in picture is not what this script draws.
import { readFileSync, writeFileSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';
import { reminderPolicy } from '../dist/src/domain/reminders.js';

const FILE = new URL('../docs/attention-timeline.svg', import.meta.url);
const MINUTE = 60_000;

/** The story, in minutes after the request was raised. */
const policy = reminderPolicy('permission_required', {});
const every = policy.everyMs / MINUTE;
const phoneDelay = 12; // a route to the phone with delaySeconds 720
const answeredAt = 14; // the person answers from the phone
const reminders = Array.from({ length: policy.times }, (_, index) => (index + 1) * every).filter(
  (at) => at < answeredAt,
);
const end = 16;

const width = 800;
const left = 215;
const right = 70;
const x = (minute) => left + ((width - left - right) * minute) / end;
const lanes = { notification: 70, desk: 130, phone: 190 };
const height = 270;

const escape = (text) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const text = (atX, atY, content, attributes = '') =>
  `<text x="${atX}" y="${atY}"${attributes}>${escape(content)}</text>`;

const parts = [];
parts.push(
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, Verdana, sans-serif" font-size="12">`,
  `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
  text(
    10,
    24,
    'One permission request: raised, reminded, escalated to the phone, cleared',
    ' font-size="15" font-weight="bold"',
  ),
);
for (const [lane, y] of Object.entries({
  Notification: lanes.notification,
  'Desk: toast, sound': lanes.desk,
  'Phone: delayed route': lanes.phone,
})) {
  parts.push(text(10, y + 4, lane, ' fill="#333333"'));
  parts.push(`<line x1="${left}" y1="${y}" x2="${width - right}" y2="${y}" stroke="#dddddd"/>`);
}
// The notification: active from raise to answer.
parts.push(
  `<rect x="${x(0)}" y="${lanes.notification - 9}" width="${x(answeredAt) - x(0)}" height="18" rx="4" fill="#f5a623"/>`,
  text(x(0) + 6, lanes.notification + 4, 'active: waits for a person', ' fill="#ffffff"'),
  `<rect x="${x(answeredAt)}" y="${lanes.notification - 9}" width="${x(end) - x(answeredAt)}" height="18" rx="4" fill="#7ed321"/>`,
  text(x(answeredAt) + 6, lanes.notification + 4, 'resolved', ' fill="#ffffff"'),
);
// The desk: the first alert and each reminder, each a toast with its sound.
const alert = (minute, label) =>
  parts.push(
    `<circle cx="${x(minute)}" cy="${lanes.desk}" r="7" fill="#4a90e2"/>`,
    text(x(minute) - 4, lanes.desk + 24, label, ' fill="#4a90e2"'),
  );
alert(0, 'toast + sound');
reminders.forEach((minute, index) => alert(minute, `reminder ${index + 1}`));
parts.push(
  `<line x1="${x(answeredAt)}" y1="${lanes.desk - 9}" x2="${x(answeredAt)}" y2="${lanes.desk + 9}" stroke="#7ed321" stroke-width="3"/>`,
  text(x(answeredAt) + 5, lanes.desk - 12, 'toast closes', ' fill="#417505"'),
);
// The phone: waits (cancelled if handled at the desk first), then sends, then clears.
parts.push(
  `<line x1="${x(0)}" y1="${lanes.phone}" x2="${x(phoneDelay)}" y2="${lanes.phone}" stroke="#9b9b9b" stroke-width="3" stroke-dasharray="6 5"/>`,
  text(
    x(0) + 6,
    lanes.phone - 10,
    `waiting ${phoneDelay} min; cancelled if handled at the desk`,
    ' fill="#777777"',
  ),
  `<circle cx="${x(phoneDelay)}" cy="${lanes.phone}" r="7" fill="#d0021b"/>`,
  text(x(phoneDelay) - 4, lanes.phone + 24, 'push sent', ' fill="#d0021b"'),
  `<line x1="${x(answeredAt)}" y1="${lanes.phone - 9}" x2="${x(answeredAt)}" y2="${lanes.phone + 9}" stroke="#7ed321" stroke-width="3"/>`,
  text(x(answeredAt) + 5, lanes.phone + 24, 'answered; cleared', ' fill="#417505"'),
);
// The time axis.
const axis = height - 30;
parts.push(`<line x1="${left}" y1="${axis}" x2="${width - right}" y2="${axis}" stroke="#333333"/>`);
for (let minute = 0; minute <= end; minute += 2) {
  parts.push(
    `<line x1="${x(minute)}" y1="${axis - 4}" x2="${x(minute)}" y2="${axis + 4}" stroke="#333333"/>`,
    text(x(minute) - 8, axis + 18, `${minute} min`, ' fill="#333333" font-size="11"'),
  );
}
parts.push('</svg>');
const svg = `${parts.join('\n')}\n`;

if (process.argv.includes('--check')) {
  const current = readFileSync(FILE, 'utf8');
  if (current !== svg) {
    process.stderr.write('docs/attention-timeline.svg is stale; run npm run docs:attention\n');
    process.exit(1);
  }
} else {
  writeFileSync(FILE, svg);
}

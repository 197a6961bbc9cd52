// Debian's Chromium, headless, as the browser driver (bridge.mjs) and the
// report checks (tools/html-check) both start it: where it is ($CHROMIUM,
// else /usr/bin/chromium) and the flags a root user in a container is known
// to work with, with no network beyond loopback (background networking,
// component updates, sync and QUIC off).

export const chromiumPath = () => process.env.CHROMIUM || "/usr/bin/chromium";

export const HEADLESS_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

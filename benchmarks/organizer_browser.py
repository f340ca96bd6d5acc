"""The browser side of the page benchmarks: the app served by waitress on a free port and a
Chromium tablet (Debian's ``/usr/bin/chromium``, 1024×768) signed in as the organizer, so a
benchmark only says what it times (``bench_turn_page``, ``bench_alterego_turn_page``,
``bench_newangeles_positions``)."""

import threading
from contextlib import contextmanager


@contextmanager
def organizer_page(app, secret):
    """``(page, base)``: a signed-in organizer's tab and the server's address; both closed after."""
    from flask.sessions import SecureCookieSessionInterface
    from playwright.sync_api import sync_playwright
    from waitress.server import create_server
    server = create_server(app, host="127.0.0.1", port=0, threads=2)
    base = f"http://127.0.0.1:{server.effective_port}"
    threading.Thread(target=server.run, daemon=True).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                        args=["--no-sandbox", "--disable-gpu"])
            try:
                context = browser.new_context(viewport={"width": 1024, "height": 768})
                page = context.new_page()
                page.goto(f"{base}/pin")
                cookie = SecureCookieSessionInterface().get_signing_serializer(app).dumps({"organizer": secret})
                context.add_cookies([{"name": app.config.get("SESSION_COOKIE_NAME", "session"), "value": cookie,
                                      "url": base}])
                yield page, base
            finally:
                browser.close()
    finally:
        server.close()

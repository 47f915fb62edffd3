"""The fixture site itself, over plain HTTP (no browser): what the agent tests rely on."""

from __future__ import annotations

import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar

import pytest
from fixture_site import FORM_FIELDS, PAGES, PASSWORD, SILENT_PAGES, USER, Site


def opener() -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))


def get(o: urllib.request.OpenerDirector, url: str, data: dict[str, str] | None = None) -> str:
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    with o.open(url, body, timeout=10) as r:
        return r.read().decode()


def test_every_listed_page_answers(site: Site) -> None:
    for path in PAGES:
        if path == "/logout" or path in SILENT_PAGES:
            continue
        page = get(opener(), site.url(path))
        # Every listed path is a page, but for the file the download page links to.
        assert "<title>" in page or path.endswith(".csv"), path
    with pytest.raises(urllib.error.HTTPError) as e:
        get(opener(), site.url("/pages/four"))
    assert e.value.code == 404


def test_login_sets_a_session_cookie_that_whoami_shows(site: Site) -> None:
    o = opener()
    assert "Not signed in" in get(o, site.url("/whoami"))
    page = get(o, site.url("/login"), {"user": USER, "password": PASSWORD})
    # The POST redirected to /whoami, which reads the new cookie.
    assert f"Signed in as {USER}" in page
    token = page.split('<code id=cookie>')[1].split("</code>")[0]
    assert site.sessions[token] == USER
    # Another browser (cookie jar) is not signed in: sessions are per cookie.
    assert "Not signed in" in get(opener(), site.url("/whoami"))
    page = get(o, site.url("/logout"), {})
    assert "Not signed in" in page and token not in site.sessions


def test_wrong_password_shows_an_error_and_sets_no_cookie(site: Site) -> None:
    o = opener()
    page = get(o, site.url("/login"), {"user": USER, "password": "nope"})
    assert "<p role=alert class=error>Wrong user name or password.</p>" in page
    assert 'value="alice"' in page
    assert "Not signed in" in get(o, site.url("/whoami"))


def test_form_answer_lists_every_field(site: Site) -> None:
    sent = {"name": "Ada", "email": "ada@example.com", "language": "fr", "plan": "pro", "terms": "yes"}
    page = get(opener(), site.url("/form"), sent)
    for field in FORM_FIELDS:
        assert f"<li>{field}: {sent.get(field, '(none)')}</li>" in page.replace("&#x27;", "'")


def test_shared_pages_mark_the_current_one(site: Site) -> None:
    page = get(opener(), site.url("/pages/two"))
    assert '<a href="/pages/two" aria-current=page>Two</a>' in page
    assert '<a href="/pages/one">One</a>' in page
    assert "<h1>Page two</h1>" in page

"""The pages as the server sends them: the language of ``?lang=`` or else the browser's,
every fixed word from the catalogs (none written in the script), a table made from the form
or one clear sentence and nothing made, an unknown table said so, and nothing served but
the page's own two files."""

from __future__ import annotations

import html
import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator

import pytest

from brailledev.network.web.page import STATIC, page_words
from layouts.catalog import LANGUAGES
from tests.server.helpers import ServerThread


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    with ServerThread() as running:
        yield running


def get(url: str, language: str = "", data: dict[str, str] | None = None,
        opener: urllib.request.OpenerDirector | None = None) -> tuple[int, str, str]:
    body = urllib.parse.urlencode(data).encode() if data is not None else None
    request = urllib.request.Request(url, data=body, headers={"Accept-Language": language}
                                     if language else {})
    try:
        with (opener or urllib.request.build_opener()).open(request, timeout=10) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers["Content-Type"], error.read().decode()


def send_form(url: str, data: dict[str, str]) -> tuple[int, str, str]:
    """The form sent as a browser sends it: the page first (its cookie and its form's
    token), then the form with the token."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
    _, _, page = get(url, opener=opener)
    token = re.search(r'name="form_token" value="([0-9a-f]+)"', page)
    assert token is not None, page
    return get(url, data={**data, "form_token": token.group(1)}, opener=opener)


def test_the_browser_s_language_unless_the_address_says_another(server):
    _, kind, french = get(server.url + "/", "fr-CA,fr;q=0.9,en;q=0.5")
    assert kind.startswith("text/html") and '<html lang="fr">' in french
    assert "Créer la table" in french
    _, _, english = get(server.url + "/?lang=en", "fr-FR")
    assert '<html lang="en">' in english and "Make the table" in english
    _, _, german = get(server.url + "/", "de-DE,es;q=0.8")
    assert '<html lang="de">' in german and "Tisch anlegen" in german
    # Every other language is offered, named in its own words.
    assert '<a class="lang" href="?lang=en" lang="en" hreflang="en">English</a>' in german
    assert 'hreflang="fr">Français</a>' in german and 'hreflang="de">' not in german
    _, _, unknown = get(server.url + "/", "es-ES,it;q=0.8")
    assert '<html lang="en">' in unknown


def test_the_script_holds_no_words_of_its_own():
    script = (STATIC / "page.js").read_text(encoding="utf-8")
    # Every string the script writes: its double-quoted and template literals.
    literals = " | ".join(quoted or template for quoted, template
                          in re.findall(r'"([^"\\]*)"|`([^`]*)`', script))
    assert "data-target" in literals  # the literals are read
    for lang in LANGUAGES:
        for key, text in page_words(lang).items():
            plain = text.split("{")[0].strip()
            if len(plain) > 3:
                assert plain not in literals, (lang, key)
    assert page_words("en").keys() == page_words("fr").keys() == page_words("de").keys()


def test_the_form_makes_a_table_and_gives_its_link(server):
    status, _, page = send_form(server.url + "/?lang=en", {"game": "uno", "players": "3",
                                                          "people": "2"})
    assert status == 201
    code = page.split(f"{server.url}/t/")[1][:12]
    assert server.call(lambda: server.tables.rooms[code].settings.people) == 2
    status, _, table = get(f"{server.url}/t/{code.upper()}?lang=fr")
    assert status == 200 and "Vous êtes invité à une partie de Uno." in table
    assert f'&quot;code&quot;: &quot;{code}&quot;' in table


@pytest.mark.parametrize(("form", "sentence"), [
    ({"game": "uno", "players": "3", "people": "5"},
     "Donnez un nombre de places pour des personnes de 1 au nombre de places à la table (3)."),
    ({"game": "uno", "players": "9", "people": "1"},
     "Uno se joue de 2 à 6 : donnez un nombre de places de 2 à 6."),
    ({"game": "chess", "players": "2", "people": "1"}, "jeu inconnu 'chess'"),
    ({"game": "uno", "players": "deux", "people": "1"},
     "Places à la table : donnez un nombre entier."),
    ({"game": "uno", "players": "2³", "people": "1"},
     "Places à la table : donnez un nombre entier."),
])
def test_a_wrong_form_says_one_sentence_and_makes_nothing(server, form, sentence):
    before = server.call(lambda: len(server.tables.rooms))
    status, _, page = send_form(server.url + "/?lang=fr", form)
    assert status == 400
    assert '<p role="alert" class="problem">' in page and html.escape(sentence) in page
    if form["game"] == "uno":  # the page's own words, not the command line's
        assert "--" not in page.split('class="problem">')[1].split("</p>")[0]
    assert "Traceback" not in page
    assert server.call(lambda: len(server.tables.rooms)) == before


def test_an_unknown_table_is_said_so(server):
    status, _, page = get(server.url + "/t/zzzzzz", "fr")
    assert status == 404
    assert "Il n&#x27;y a pas de table zzzzzz ; vérifiez le lien reçu." in page


def test_only_the_page_s_own_files_are_served(server):
    assert get(server.url + "/web/page.js")[1].startswith("text/javascript")
    assert get(server.url + "/web/page.css")[1].startswith("text/css")
    assert get(server.url + "/web/..%2Fpage.py")[0] == 404
    assert get(server.url + "/web/table.html")[0] == 404

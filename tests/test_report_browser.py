"""``make report`` looked at in a real browser: the quick run's report (``quick_report``) opened in headless Chromium
from Debian's packages (``/usr/bin/chromium``, driven through ``/usr/bin/chromedriver`` by selenium), every result
visited the way a reader does (a section of the menu, then the info button of the result's row), and its rendered
caption checked in the DOM: every ``<math>`` element and every token in it (a letter, digit, operator, the bar of
``\\bar p``) has a non-zero rendered box, each ``$...$`` span of the notebook's title cell is one ``<math>``, and the
visible text of the caption and of the job's parameters shows no LaTeX or RST source (``\\``, ``$``, ``:math:``,
````` `` `````, ``:raw-html:``).

Skipped only where ``/usr/bin/chromium`` is absent (``apt-get install chromium chromium-driver``; .ci/run installs
both). Marker ``browser``; the test uses the quick build, so it runs in the workflow tier of ``make test``. Driven
by selenium rather than playwright: selenium is a pure-Python wheel that talks to Debian's chromedriver, built for
Debian's chromium, while playwright bundles a Node.js driver and by default downloads browser builds of its own.
"""

import base64
import re
from pathlib import Path

import pandas as pd
import pytest
from privtest_workflow import captions, catalogue, reporting

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
#: Headless, no sandbox (CI runs as root) and nothing that reaches the network: without the background-networking
#: flags Chromium waits on the closed network of the build machines.
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,1000",
)
#: Source text that must not show in a rendered caption or a job's parameters.
RAW = ("\\", "$", ":math:", "``", ":raw-html:")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium chromium-driver)"
    ),
]

#: Rendered boxes (CSS px) of the shown caption: [[width, height] of each <math>], [[tag, text, width, height] of
#: each token element (mi, mn, mo, mtext, ms) with visible text (not only U+2061-2064, the invisible function
#: application, times, separator and plus, which have no width by design)]; null if there is no caption.
_BOXES = r"""
const cap = document.querySelector('li.prose');
if (!cap) return null;
const box = el => { const r = el.getBoundingClientRect(); return [r.width, r.height]; };
const maths = Array.from(cap.querySelectorAll('math'));
const tokens = maths.flatMap(m => Array.from(m.querySelectorAll('mi, mn, mo, mtext, ms')))
    .filter(t => t.textContent.replace(/[\s\u2061-\u2064]/g, '') !== '')  // not the invisible operators
    .map(t => [t.tagName, t.textContent, ...box(t)]);
return [maths.map(box), tokens];
"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """A selenium WebDriver on headless Chromium with a fresh profile (``--user-data-dir``); quit after the module.
    Fails (does not skip) if Chromium is there but its driver is not."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    assert CHROMEDRIVER.exists(), f"{CHROMIUM} without {CHROMEDRIVER}: apt-get install chromium-driver"
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))  # a path: no selenium-manager
    driver.set_page_load_timeout(120)
    yield driver
    driver.quit()


def open_report(driver, report: Path) -> dict[str, str]:
    """Load ``report`` in ``driver``: its results as path -> report category (the paper section)."""
    driver.get(report.resolve().as_uri())
    return driver.execute_script(
        "const out = {};"
        "for (const [cat, subs] of Object.entries(categories))"
        "  for (const paths of Object.values(subs)) for (const p of paths) out[p] = cat;"
        "return out;"
    )


def show_result(driver, category: str, path: str) -> None:
    """Navigate as a reader does: the menu's section ``category`` (the menu item calls ``app.showCategory``), then
    a click on the info button of the row of ``path``; returns once the side panel shows that result (React renders
    after the call returns: each step waits up to 30 s). Raises AssertionError if the row or the panel is not
    there."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    wait = WebDriverWait(driver, 30)
    driver.execute_script("app.showCategory(arguments[0])", category)
    label = driver.execute_script("return Object.values(results[arguments[0]].labels || {})[0] || arguments[0]", path)
    row = f"//tbody/tr[td[1][normalize-space()={label!r}]][.//div[@role='group']]"  # a results row, not the panel's
    try:
        wait.until(lambda d: len(d.find_elements(By.XPATH, row)) == 1)
    except TimeoutException:
        raise AssertionError(f"{path}: no single row labelled {label!r} in section {category!r}") from None
    # a click event on the button itself: a pointer click at its centre can land on the row's other button while
    # the side panel still animates its width (transition-all) from the previous view
    driver.execute_script("arguments[0].click()", driver.find_element(By.XPATH, row + "//div[@role='group']/*[last()]"))
    try:
        wait.until(
            lambda d: (
                d.execute_script("return app.state.navbarMode === 'resultinfo' && app.state.resultPath") == path
                and d.find_elements(By.XPATH, "//li[normalize-space()='Size']")
            )
        )
    except TimeoutException:
        raise AssertionError(f"{path}: the info button did not open the result's panel") from None


def caption_problems(driver, path: str, title_cell: str | None) -> list[str]:
    """What is wrong with the caption and parameters of ``path`` as shown now in ``driver`` (:func:`show_result`): a
    list of messages, empty if nothing is. ``title_cell`` is the Markdown the caption comes from (None: the result has
    no notebook, and no caption is expected)."""
    from selenium.webdriver.common.by import By

    problems = []
    boxes = driver.execute_script(_BOXES)
    params = driver.find_elements(By.XPATH, "//li[normalize-space()='Job parameters']/following-sibling::li")
    for li in params:
        problems += [f"raw {s!r} in the parameters: {li.text[:200]}" for s in RAW if s in li.text]
    if title_cell is None:
        return problems + ([f"{path} has a caption but no title cell"] if boxes else [])
    if boxes is None:
        return [*problems, f"{path}: no caption"]
    maths, tokens = boxes
    text = driver.find_element(By.CSS_SELECTOR, "li.prose").text
    problems += [f"raw {s!r} in the caption: {text[:300]}" for s in RAW if s in text]
    if not text.strip():
        problems.append("empty caption")
    if len(maths) != len(captions._MATH.findall(title_cell)):
        problems.append(f"{len(maths)} <math> elements for {len(captions._MATH.findall(title_cell))} $...$ spans")
    problems += [f"<math> {i} renders {w}x{h} px" for i, (w, h) in enumerate(maths) if not (w > 0 and h > 0)]
    problems += [f"<{tag}>{t}</{tag}> renders {w}x{h} px" for tag, t, w, h in tokens if not (w > 0 and h > 0)]
    return problems


def title_cells(repo: Path) -> dict[str, str]:
    """Reported file of each catalogue output (``catalogue.REPORTED``) -> its notebook's title cell."""
    return {o.reported(): captions.title_cell(repo / f"notebooks/{o.id}.ipynb") for o in catalogue.load(repo).values()}


def menu_order(driver, names) -> list[str]:
    """``names`` in the order the report's menu shows them (the visible text of the page, top to bottom)."""
    text = driver.execute_script("return document.body.innerText")
    missing = [n for n in names if n not in text]
    assert not missing, f"not in the menu: {missing}"
    return sorted(names, key=text.index)


def to_menu(driver) -> None:
    """Back to the menu, as a reader does between two sections (the report's results table computes its rows when
    it is first shown: going from one section's table straight to another's would keep the first one's rows)."""
    from selenium.webdriver.support.ui import WebDriverWait

    driver.execute_script("app.setView({navbarMode: 'menu'})")
    WebDriverWait(driver, 30).until(lambda d: d.execute_script("return app.state.navbarMode") == "menu")


def rows_shown(driver, category: str) -> list[list[str]]:
    """The rows of the results table of the report's section ``category``, as shown: the text of each cell."""
    from selenium.webdriver.support.ui import WebDriverWait

    to_menu(driver)
    driver.execute_script("app.showCategory(arguments[0])", category)
    # React renders after the call returns: the app's state names the section once its rows are rendered
    WebDriverWait(driver, 30).until(
        lambda d: (
            d.execute_script("return app.state.category === arguments[0] && app.state.navbarMode", category)
            in ("category", "subcategory")
        )
    )
    cells = (
        "return Array.from(document.querySelectorAll('tbody tr'))"
        ".map(r => Array.from(r.cells).map(c => c.innerText.trim()))"
    )
    WebDriverWait(driver, 30).until(lambda d: d.execute_script(cells))
    return [r[:-1] for r in driver.execute_script(cells) if len(r) > 1]  # the last cell holds the buttons


def test_every_caption_renders_in_chromium(quick_report, browser):
    repo = quick_report.parents[1]
    cells = title_cells(repo)
    cells["figures/claims.html"] = (repo / "workflow/report/claims.rst").read_text()  # its caption, without math
    shown = open_report(browser, quick_report)
    assert set(cells) <= set(shown), f"not in the report: {set(cells) - set(shown)}"
    problems = {}
    for path, category in shown.items():
        show_result(browser, category, path)
        if found := caption_problems(browser, path, cells.get(path)):
            problems[path] = found
    assert not problems, problems
    assert sum(len(captions._MATH.findall(c)) for c in cells.values()) > 0  # the check above did look at math


def test_a_broken_caption_fails_the_look(quick_report, browser):
    """The look can fail: a copy of the report whose fig_oc caption is its title cell as verbatim RST (the old
    fault: ``$\\bar p_t$`` shows as ``$bar p_t$``) and whose table1 caption hides its math fails in both."""
    from docutils.core import publish_parts

    repo = quick_report.parents[1]
    cells = title_cells(repo)
    verbatim = publish_parts(cells["figures/fig_oc.png"].replace("# ", "", 1), writer="html")["body"]
    hidden = '<p>table1: <math style="display:none"><mi>p</mi></math></p>'
    shown = open_report(browser, quick_report)  # the captions replaced in the loaded page only
    browser.execute_script(
        "results['figures/fig_oc.png'].caption = arguments[0]; results['figures/table1.html'].caption = arguments[1];",
        verbatim,
        hidden,
    )
    show_result(browser, shown["figures/fig_oc.png"], "figures/fig_oc.png")
    oc = caption_problems(browser, "figures/fig_oc.png", cells["figures/fig_oc.png"])
    assert any(re.match(r"raw '\$' in the caption", p) for p in oc) and any("<math> elements" in p for p in oc), oc
    show_result(browser, shown["figures/table1.html"], "figures/table1.html")
    t1 = caption_problems(browser, "figures/table1.html", "table1: $p$")
    assert t1 == ["<math> 0 renders 0x0 px", "<mi>p</mi> renders 0x0 px"], t1


def test_the_report_opens_on_what_the_artifact_is(quick_report, browser):
    """The landing page is the description with the verdict totals and the link to the index by paper result, not
    the rule graph."""
    from selenium.webdriver.common.by import By

    repo = quick_report.parents[1]
    open_report(browser, quick_report)
    assert browser.execute_script("return app.state.content") == "metadata"
    text = browser.execute_script("return document.body.innerText")
    assert "Near-Optimal Generalized Private Testing" in text and "paper order" in text
    links = [a.get_attribute("href") for a in browser.find_elements(By.TAG_NAME, "a")]
    assert any(h and h.endswith("/docs/paper_index.md") for h in links), links
    claims = pd.read_csv(repo / "figures/claims.csv", dtype=str, keep_default_na=False)
    assert browser.execute_script("return metadata") == {"claims checked": len(claims)}
    assert f"This run: {reporting.verdict_counts(list(claims.verdict), every=True)}." in text
    top = browser.execute_script("return document.querySelector('h1').getBoundingClientRect().top")
    assert top >= 0, "the page's title is scrolled out of reach"


def test_parts_and_outputs_come_in_paper_order_with_their_verdicts(quick_report, browser):
    repo = quick_report.parents[1]
    cat = catalogue.load(repo)
    titles = catalogue.sections(repo)
    expected = [reporting.category(t, titles) for t in titles] + [reporting.category(reporting.CLAIMS_SECTION, titles)]
    open_report(browser, quick_report)
    assert menu_order(browser, expected) == expected
    for title in titles:
        rows = rows_shown(browser, reporting.category(title, titles))
        ids = [o.id for o in cat.values() if o.section == title]
        assert [r[1] for r in rows] == ids, (title, rows)  # one row per output, in catalogue order
        for _, oid, counts in rows:
            assert counts.startswith(reporting.file_verdict_counts(repo / catalogue.CLAIMS.format(oid))), rows
    (row,) = rows_shown(browser, expected[-1])
    assert row == ["claims", reporting.file_verdict_counts(repo / "figures/claims.csv", every=True)]


def test_tables_and_claims_show_as_html_with_their_math(quick_report, browser):
    """The eye button of table1-3 and of the claims shows an HTML table in the report (not a CSV download), whose
    math renders."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    repo = quick_report.parents[1]
    tables = [o.reported() for o in catalogue.load(repo).values() if o.kind == "table"]
    shown = open_report(browser, quick_report)
    for path in [*tables, "figures/claims.html"]:
        result = browser.execute_script("return results[arguments[0]]", path)
        assert result["mime_type"] == "text/html", (path, result["mime_type"])
        page = base64.b64decode(result["data_uri"].split(",", 1)[1]).decode()
        assert page == (repo / path).read_text()
        label = browser.execute_script("return Object.values(results[arguments[0]].labels)[0]", path)
        eye = f"//tbody/tr[td[1][normalize-space()={label!r}]]//div[@role='group']/*[1]"  # the row's first button
        browser.execute_script("app.setView({content: 'metadata'})")  # away from the previous table's view
        to_menu(browser)
        browser.execute_script("app.showCategory(arguments[0])", shown[path])
        WebDriverWait(browser, 30).until(lambda d, eye=eye: len(d.find_elements(By.XPATH, eye)) == 1)
        browser.execute_script("arguments[0].click()", browser.find_element(By.XPATH, eye))
        WebDriverWait(browser, 30).until(lambda d: d.execute_script("return app.state.content") == "html")
        browser.switch_to.frame(browser.find_element(By.TAG_NAME, "iframe"))
        try:
            WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.TAG_NAME, "table"))
            sizes = browser.execute_script(
                "return Array.from(document.querySelectorAll('table, math')).map(e => e.getBoundingClientRect().width)"
            )
        finally:
            browser.switch_to.default_content()
        assert sizes and all(w > 0 for w in sizes), (path, sizes)
        assert len(sizes) - page.count("<table>") == page.count("<math "), path

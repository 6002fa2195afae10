"""The balance report: one self-contained HTML file from a simulation's summary.

Its words are the engine's `report_*` messages in the language of `--lang` (a game's locale may
override them), its numbers are written as the language of those words writes them
(number_format.py), and endings are the game's own sentences.

Plots are drawn with matplotlib and inlined as SVG. Why matplotlib: it is a long-kept, widely
packaged library that draws at the moment the report is written, so the page needs no script
and no network to show its plots (a Vega-Lite page would have to embed its ~1 MB runtime to
open offline), SVG stays sharp at any zoom and keeps its text selectable, and the same code
can write PNG or PDF. The plots' text stays text (`svg.fonttype: none`): the browser draws it
with its own fonts and their fallbacks, so a Japanese or Arabic name reads as it does in the
tables. Matplotlib only measures it, with its DejaVu Sans, which has no CJK glyphs: its warning
about each missing glyph is not the user's concern (the browser has the glyph, or none will),
and it is kept off the terminal. Names are shown as written: a `$` in one is no mathtext.
Every number shown is the summary's own (the same dict `--json` prints,
embedded in the page as JSON); table cells carry `data-key` with the summary path they show.
"""

from __future__ import annotations

import html
import io
import json
import warnings
from typing import Any

from ..number_format import decimal, percent

PLOT_STYLE = {"svg.hashsalt": "ludex", "svg.fonttype": "none", "text.parse_math": False,
              "font.size": 9, "axes.spines.top": False, "axes.spines.right": False}
# matplotlib's warning, at drawing time, for each character its font lacks (a CJK name)
MISSING_GLYPH = r"Glyph \d+ .* missing from (current )?font"
WIN, LINE, MUTED = "#3b6ea8", "#c0392b", "#8a8a8a"
TOP_CARDS = 25  # cards shown in the plot (the table lists them all)


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")  # no display: draw to files
    import matplotlib.pyplot as plt

    plt.rcParams.update(PLOT_STYLE)
    return plt


def _svg(fig) -> str:
    buffer = io.StringIO()
    with warnings.catch_warnings():  # the text is drawn by the browser: see the docstring
        warnings.filterwarnings("ignore", MISSING_GLYPH, UserWarning)
        fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    _pyplot().close(fig)
    text = buffer.getvalue()
    return text[text.index("<svg"):]


class _Words:
    """The report's words in the localizer's language, and its numbers in the language of
    those words (the engine's English where a game's language gives no `report_*` words)."""

    def __init__(self, localizer: Any):
        self.localizer, self.lang = localizer, localizer.text_language("report_title")

    def __call__(self, key: str, **args: Any) -> str:
        """A `report_*` message as plain text (for plots; escape it for the page)."""
        return self.localizer.message(f"report_{key}", args)

    def html(self, key: str, spans: dict[str, str] | None = None, **args: Any) -> str:
        """A `report_*` message as HTML: its own text escaped, the `spans` arguments (numbers
        in their data-key spans) put in as they are."""
        spans = spans or {}
        # private-use characters: no message text has them, and escaping leaves them alone
        marks = {name: f"\ue000{i}\ue001" for i, name in enumerate(spans)}
        text = html.escape(self(key, **args, **marks))
        for name, mark in marks.items():
            text = text.replace(mark, spans[name])
        return text

    def name(self, value: str) -> str:
        return str(self.localizer.name(value))

    def ending(self, key: str) -> str:
        """Why games ended, as the game says it (the engine's word for unfinished games)."""
        message = "simulated_unfinished" if key == "unfinished" else key
        # one bar stands for games that gave the reason different arguments: "…" for each
        return self.localizer.message(
            message, dict.fromkeys(self.localizer.message_arguments(message), "…"))

    def pct(self, fraction: float, digits: int = 1) -> str:
        return percent(self.lang, fraction, digits)

    def interval(self, bounds: list[float]) -> str:
        return f"{self.pct(bounds[0])} – {self.pct(bounds[1])}"

    def number(self, value: float) -> str:
        return decimal(self.lang, value) if isinstance(value, float) else str(value)

    def signed(self, value: float) -> str:
        text = decimal(self.lang, abs(value), 1, exact=True)
        return ("−" if value < 0 else "+") + text


def _rates_plot(words: _Words, labels: list[str], rates: list[dict], fair: float | None,
                title: str) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * len(labels) + 1.1))
    values = [r["rate"] for r in rates]
    low = [r["rate"] - r["interval"][0] for r in rates]
    high = [r["interval"][1] - r["rate"] for r in rates]
    ax.barh(labels, values, xerr=[low, high], color=WIN, ecolor="#222", capsize=3)
    if fair is not None:
        ax.axvline(fair, color=LINE, linestyle="--", linewidth=1,
                   label=words("fair_share", share=words.pct(fair, 0)))
        ax.legend(loc="lower right", frameon=False)
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.xaxis.set_major_formatter(lambda x, _: words.pct(x, 0))
    ax.set_title(words("with_interval", title=title), loc="left")
    return _svg(fig)


def _histogram_plot(words: _Words, histogram: dict[str, int], xlabel: str, title: str) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 2.6))
    xs = [int(k) for k in histogram]
    if xs:
        ax.bar(xs, list(histogram.values()), width=0.9 if len(xs) < 40 else 1.0, color=WIN)
    else:
        ax.text(0.5, 0.5, words("no_game"), ha="center", transform=ax.transAxes)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(words.localizer.message("simulated_games"))
    ax.set_title(title, loc="left")
    _whole_numbers(ax.xaxis, ax.yaxis)  # turns, decisions and games: no 8.6 ticks
    _numbers_in(words, ax.xaxis, ax.yaxis)
    return _svg(fig)


def _bars_plot(words: _Words, labels: list[str], counts: list[int], title: str,
               xlabel: str) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 0.32 * len(labels) + 1.1))
    ax.barh(labels, counts, color=WIN)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title, loc="left")
    _whole_numbers(ax.xaxis)  # counts of games or plays
    _numbers_in(words, ax.xaxis)
    return _svg(fig)


def _whole_numbers(*axes) -> None:
    from matplotlib.ticker import MaxNLocator

    for axis in axes:
        axis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))


def _numbers_in(words: _Words, *axes) -> None:
    """Tick labels written as the report's language writes numbers (2,5 in French)."""
    for axis in axes:
        axis.set_major_formatter(lambda x, _: words.number(float(x)))


def _scores_plot(words: _Words, names: list[str], histograms: list[dict[str, int]]) -> str:
    """One box per power, drawn from the score histogram (quartiles, whiskers at the extremes)."""
    plt = _pyplot()
    stats = []
    for name, histogram in zip(names, histograms, strict=True):
        values = sorted((int(k), v) for k, v in histogram.items())
        total = sum(v for _, v in values)
        if not total:
            stats.append({"label": name, "med": 0, "q1": 0, "q3": 0, "whislo": 0, "whishi": 0,
                          "mean": 0})
            continue

        def quantile(q, values=values, total=total):
            seen = 0
            for value, count in values:
                seen += count
                if seen >= q * total:
                    return value
            return values[-1][0]
        stats.append({"label": name, "med": quantile(0.5), "q1": quantile(0.25),
                      "q3": quantile(0.75), "whislo": values[0][0], "whishi": values[-1][0],
                      "mean": sum(k * v for k, v in values) / total})
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * len(names) + 1.1))
    if stats:
        ax.bxp(stats, orientation="horizontal", showmeans=True, showfliers=False,
               boxprops={"color": WIN}, medianprops={"color": LINE})
    else:
        ax.text(0.5, 0.5, words("no_game"), ha="center", transform=ax.transAxes)
    ax.invert_yaxis()
    _numbers_in(words, ax.xaxis)
    ax.set_xlabel(words("final_score"))
    ax.set_title(words("scores_plot"), loc="left")
    return _svg(fig)


def _span(key: str, text: str) -> str:
    """A number of the summary, marked with the summary path it shows."""
    return f'<span data-key="{html.escape(key)}">{html.escape(text)}</span>'


def _cell(key: str, text: str) -> str:
    return f'<td data-key="{html.escape(key)}">{html.escape(text)}</td>'


def _rate_cells(words: _Words, key: str, r: dict) -> str:
    return (_cell(f"{key}.count", str(r["count"])) + _cell(f"{key}.of", str(r["of"]))
            + _cell(f"{key}.rate", words.pct(r["rate"]))
            + _cell(f"{key}.interval", words.interval(r["interval"])))


def _head(words: _Words, *keys: str) -> str:
    """A table's heading row: `report_*` messages, or `simulated_*` ones (`simulated:…`)."""
    said = [words.localizer.message(k.replace(":", "_")) if k.startswith("simulated:")
            else words(k) for k in keys]
    return "<tr>" + "".join(f"<th>{html.escape(text)}</th>" for text in said) + "</tr>"


RATE_HEAD = ("simulated:wins", "simulated:games", "simulated:rate", "simulated:interval")


def _section(name: str, heading: str, *parts: str) -> str:
    return f"<section id='{name}'><h2>{heading}</h2>{''.join(parts)}</section>"


def _plot(svg: str) -> str:
    return f"<figure class='plot'>{svg}</figure>"


def render(summary: dict, localizer: Any) -> str:
    """The report's HTML, in the localizer's language."""
    words = _Words(localizer)
    e = html.escape
    powers = list(summary["powers"])
    seats, fair, first = summary["seats"], summary["fair_share"], summary["first_seat"]
    seat_names = [localizer.message("simulated_seat", {"seat": i + 1})
                  for i in range(len(seats))]
    draws, shared = summary["draw_rate"], summary["shared_wins"]
    sections = [
        _section(
            "powers", e(words("powers")),
            _plot(_rates_plot(words, [words.name(p) for p in powers],
                              [summary["powers"][p] for p in powers], None, words("powers"))),
            "<table>" + _head(words, "power", *RATE_HEAD)
            + "".join(f"<tr><td>{e(words.name(p))}</td>"
                      f"{_rate_cells(words, f'powers.{p}', summary['powers'][p])}</tr>"
                      for p in powers) + "</table>"),
        _section(
            "seats", e(words("seats")),
            _plot(_rates_plot(words, seat_names, seats, fair, words("seats"))),
            "<table>" + _head(words, "seat", *RATE_HEAD)
            + "".join(f"<tr><td>{e(seat_names[i])}</td>{_rate_cells(words, f'seats.{i}', r)}"
                      "</tr>" for i, r in enumerate(seats)) + "</table>",
            "" if fair is None else "<p>" + words.html("first_seat", {  # cooperative: no edge
                "rate": _span("first_seat.rate", words.pct(first["rate"])),
                "fair": _span("fair_share", words.pct(fair)),
                "advantage": _span("first_seat.advantage", words.signed(100 * first["advantage"]))
            }) + "</p>",
            "" if not shared["count"] else "<p>" + words.html("shared_wins", {
                "count": _span("shared_wins.count", str(shared["count"])),
                "of": _span("shared_wins.of", str(shared["of"])),
                "rate": _span("shared_wins.rate", words.pct(shared["rate"])),
                "interval": _span("shared_wins.interval", words.interval(shared["interval"])),
            }, of_n=shared["of"]) + "</p>",
            # a cooperative game's games without a winner are lost by all, not drawn
            "<p>" + words.html("lost_together" if summary.get("cooperative") else "draws", {
                "count": _span("draw_rate.count", str(draws["count"])),
                "of": _span("draw_rate.of", str(draws["of"])),
                "rate": _span("draw_rate.rate", words.pct(draws["rate"])),
                "interval": _span("draw_rate.interval", words.interval(draws["interval"])),
            }, of_n=draws["of"]) + "</p>"),
    ]
    agents = summary["by_agent"]
    if len(agents) > 1 or summary.get("rotate"):
        sections.append(_section(
            "agents", e(words("agents")),
            _plot(_rates_plot(words, list(agents), list(agents.values()), fair,
                              words("agents_plot"))),
            "<table>" + _head(words, "agent", "simulated:wins", "seats_taken",
                              *RATE_HEAD[2:])
            + "".join(f"<tr><td>{e(a)}</td>{_rate_cells(words, f'by_agent.{a}', r)}</tr>"
                      for a, r in agents.items()) + "</table>"))
    turns, decisions = summary["turns"], summary["decisions"]
    sections.append(_section(
        "length", e(words("length")),
        _plot(_histogram_plot(words, turns["histogram"], words("turns"),
                              words("length_in_turns"))),
        _plot(_histogram_plot(words, decisions["histogram"], words("decisions"),
                              words("length_in_decisions"))),
        "<p>" + words.html("lengths", {
            "min": _span("turns.min", words.number(turns["min"])),
            "mean": _span("turns.mean", words.number(turns["mean"])),
            "max": _span("turns.max", words.number(turns["max"])),
            "decisions": _span("decisions.mean", words.number(decisions["mean"]))}) + "</p>"))
    endings = summary["endings"]
    ending_names = [words.ending(k) for k in endings]
    sections.append(_section(
        "endings", e(words("endings")),
        _plot(_bars_plot(words, ending_names, list(endings.values()), words("endings"),
                         localizer.message("simulated_games"))),
        "<table>" + _head(words, "ending", "simulated:games")
        + "".join(f"<tr><td>{e(name)}</td>{_cell(f'endings.{k}', str(v))}</tr>"
                  for name, (k, v) in zip(ending_names, endings.items(), strict=True))
        + "</table>"))
    cards = summary["cards"]
    if cards:
        shown = cards[:TOP_CARDS]
        sections.append(_section(
            "cards", e(words("cards")),
            _plot(_bars_plot(words, [words.name(c["card"]) for c in shown],
                             [c["plays"] for c in shown],
                             words("cards_plot", shown=len(shown), total=len(cards)),
                             words("plays"))),
            f"<p>{e(words('cards_note'))}</p>",
            "<table>" + _head(words, "card", "plays", "simulated:games", "simulated:wins",
                              "win_rate", "simulated:interval")
            + "".join(f"<tr><td>{e(words.name(c['card']))}</td>"
                      + _cell(f"cards.{i}.plays", str(c["plays"]))
                      + _cell(f"cards.{i}.games", str(c["games"]))
                      + _cell(f"cards.{i}.win_rate.count", str(c["win_rate"]["count"]))
                      + _cell(f"cards.{i}.win_rate.rate", words.pct(c["win_rate"]["rate"]))
                      + _cell(f"cards.{i}.win_rate.interval",
                              words.interval(c["win_rate"]["interval"])) + "</tr>"
                      for i, c in enumerate(cards)) + "</table>"))
    actions = summary.get("actions") or []
    if actions:
        never = summary.get("never_taken") or []
        # the summary's own line, the actions by name: the page is read beside the game
        never_line = localizer.message("simulated_never_taken", {
            "count": len(never), "games": summary["finished"],
            "actions": ", ".join(words.name(a) for a in never)}) if never else ""
        sections.append(_section(
            "actions", e(words("actions")),
            f"<p>{e(words('actions_note'))}</p>",
            f"<p><strong>{e(never_line)}</strong></p>" if never else "",
            "<table>" + _head(words, "action", "times", "simulated:games")
            + "".join(f"<tr><td>{e(words.name(a['action']))}</td>"
                      + _cell(f"actions.{i}.taken", str(a["taken"]))
                      + _cell(f"actions.{i}.games", str(a["games"])) + "</tr>"
                      for i, a in enumerate(actions)) + "</table>"))
    scores = summary["scores"]
    sections.append(_section(
        "scores", e(words("scores")),
        _plot(_scores_plot(words, [words.name(p) for p in scores],
                           [scores[p]["histogram"] for p in scores])),
        "<table>" + _head(words, "power", "min", "mean", "max")
        + "".join(f"<tr><td>{e(words.name(p))}</td>"
                  + _cell(f"scores.{p}.min", words.number(s["min"]))
                  + _cell(f"scores.{p}.mean", words.number(s["mean"]))
                  + _cell(f"scores.{p}.max", words.number(s["max"])) + "</tr>"
                  for p, s in scores.items()) + "</table>"))
    errors = summary["errors"]
    sections.append(_section(
        "errors", words.html("errors", {"count": _span("errors.length", str(len(errors)))}),
        f"<p>{e(words('no_errors'))}</p>" if not errors else
        "<table>" + _head(words, "seed", "error", "reproduce")
        + "".join(f"<tr><td>{err['seed']}</td><td>{e(err['message'])}</td>"
                  f"<td><code>{e(err.get('command', ''))}</code></td></tr>"
                  for err in errors) + "</table>"))
    warnings = summary.get("warnings") or {}
    sections.append(_section(
        "warnings", words.html("warnings", {"count": _span("warnings.length",
                                                           str(len(warnings)))},
                               count_n=len(warnings)),
        f"<p>{e(words('no_warnings'))}</p>" if not warnings else
        f"<p>{e(words('warnings_note'))}</p><table>"
        + _head(words, "code", "simulated:games", "times", "first_seed", "first_warning")
        + "".join(f"<tr><td>{e(code)}</td>" + _cell(f"warnings.{code}.games", str(w["games"]))
                  + _cell(f"warnings.{code}.count", str(w["count"]))
                  + _cell(f"warnings.{code}.first.seed", str(w["first"]["seed"]))
                  + f"<td><code>{e(w['first']['warning'])}</code></td></tr>"
                  for code, w in warnings.items()) + "</table>"))
    title = words("title", game=localizer.game_name(summary["game"]))
    head = "<p>" + words.html(
        "summary", {"finished": _span("finished", str(summary["finished"])),
                    "requested": _span("requested", str(summary["requested"])),
                    "agents": f"<code>{e(','.join(summary['agents']))}</code>"},
        finished_n=summary["finished"], requested_n=summary["requested"],
        done=summary["finished"] + len(errors),
        interrupted="yes" if summary.get("interrupted") else "no",
        first=summary["seed"], last=summary["seed"] + summary["requested"] - 1,
        rotated="yes" if summary.get("rotate") else "no") + "</p>"
    data = json.dumps(summary, sort_keys=True).replace("</", "<\\/")
    return f"""<!DOCTYPE html>
<html lang="{e(words.lang)}"><head><meta charset="utf-8"><title>{e(title)}</title>
<style>
body {{ font: 14px/1.45 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto;
       padding: 0 1rem; color: #222; }}
table {{ border-collapse: collapse; margin: .5rem 0 1rem; }}
td, th {{ padding: .2rem .7rem; border-bottom: 1px solid #ddd; text-align: right; }}
td:first-child, th:first-child {{ text-align: left; }}
figure.plot {{ margin: .5rem 0; }} figure.plot svg {{ max-width: 100%; height: auto; }}
</style></head><body>
<h1>{e(title)}</h1>
{head}
{''.join(sections)}
<script type="application/json" id="summary">{data}</script>
</body></html>
"""

"""The balance report: one self-contained HTML file from a simulation's summary.

Plots are drawn with matplotlib and inlined as SVG. Why matplotlib: it is a long-kept, widely
packaged library that draws at the moment the report is written, so the page needs no script
and no network to show its plots (a Vega-Lite page would have to embed its ~1 MB runtime to
open offline), SVG stays sharp at any zoom and keeps its text selectable, and the same code
can write PNG or PDF. Every number shown is the summary's own (the same dict `--json` prints,
embedded in the page as JSON); table cells carry `data-key` with the summary path they show.
"""

from __future__ import annotations

import html
import io
import json
from pathlib import Path
from typing import Any

PLOT_STYLE = {"svg.hashsalt": "ludex", "svg.fonttype": "none", "font.size": 9,
              "axes.spines.top": False, "axes.spines.right": False}
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
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    _pyplot().close(fig)
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def _rates_plot(labels: list[str], rates: list[dict], fair: float | None, title: str) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * len(labels) + 1.1))
    values = [r["rate"] for r in rates]
    low = [r["rate"] - r["interval"][0] for r in rates]
    high = [r["interval"][1] - r["rate"] for r in rates]
    ax.barh(labels, values, xerr=[low, high], color=WIN, ecolor="#222", capsize=3)
    if fair is not None:
        ax.axvline(fair, color=LINE, linestyle="--", linewidth=1, label=f"fair share {fair:.0%}")
        ax.legend(loc="lower right", frameon=False)
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.xaxis.set_major_formatter(lambda x, _: f"{x:.0%}")
    ax.set_title(title, loc="left")
    return _svg(fig)


def _histogram_plot(histogram: dict[str, int], xlabel: str, title: str) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 2.6))
    xs = [int(k) for k in histogram]
    if xs:
        ax.bar(xs, list(histogram.values()), width=0.9 if len(xs) < 40 else 1.0, color=WIN)
    else:
        ax.text(0.5, 0.5, "no finished game", ha="center", transform=ax.transAxes)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.set_title(title, loc="left")
    return _svg(fig)


def _bars_plot(labels: list[str], counts: list[int], title: str, xlabel: str) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(6.4, 0.32 * len(labels) + 1.1))
    ax.barh(labels, counts, color=WIN)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.set_title(title, loc="left")
    return _svg(fig)


def _scores_plot(names: list[str], histograms: list[dict[str, int]]) -> str:
    """One box per power, drawn from the score histogram (quartiles, whiskers at the extremes)."""
    plt = _pyplot()
    stats = []
    for name, histogram in zip(names, histograms, strict=True):
        values = sorted((int(k), v) for k, v in histogram.items())
        total = sum(v for _, v in values)
        if not total:
            stats.append({"label": name, "med": 0, "q1": 0, "q3": 0, "whislo": 0, "whishi": 0})
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
        ax.text(0.5, 0.5, "no finished game", ha="center", transform=ax.transAxes)
    ax.invert_yaxis()
    ax.set_xlabel("final score")
    ax.set_title("Final scores (box: quartiles, line: median, triangle: mean, whiskers: "
                 "extremes)", loc="left")
    return _svg(fig)


def _pct(value: float) -> str:
    return f"{100 * value:.1f}%"


def _rate_cells(key: str, r: dict) -> str:
    low, high = r["interval"]
    return (f'<td data-key="{key}.count">{r["count"]}</td>'
            f'<td data-key="{key}.of">{r["of"]}</td>'
            f'<td data-key="{key}.rate">{_pct(r["rate"])}</td>'
            f'<td data-key="{key}.interval">{_pct(low)} – {_pct(high)}</td>')


RATE_HEAD = "<th>wins</th><th>games</th><th>rate</th><th>95% interval</th>"


def render(summary: dict, localizer: Any = None) -> str:
    """The report's HTML."""
    name = (lambda i: localizer.name(i)) if localizer else (lambda i: i)
    e = html.escape
    powers = list(summary["powers"])
    sections = []
    sections.append(
        "<section id='powers'><h2>Win rate per power</h2>"
        + "<figure class='plot'>" + _rates_plot([name(p) for p in powers],
                                                [summary["powers"][p] for p in powers],
                                                None, "Win rate per power (95% interval)")
        + "</figure><table><tr><th>power</th>" + RATE_HEAD + "</tr>"
        + "".join(f"<tr><td>{e(name(p))}</td>{_rate_cells(f'powers.{p}', summary['powers'][p])}"
                  "</tr>" for p in powers) + "</table></section>")
    seats = summary["seats"]
    fair = summary["fair_share"]
    first = summary["first_seat"]
    sections.append(
        "<section id='seats'><h2>Win rate per seat</h2>"
        + "<figure class='plot'>" + _rates_plot([f"seat {i + 1}" for i in range(len(seats))],
                                                seats, fair, "Win rate per seat (95% interval)")
        + "</figure><table><tr><th>seat</th>" + RATE_HEAD + "</tr>"
        + "".join(f"<tr><td>seat {i + 1}</td>{_rate_cells(f'seats.{i}', r)}</tr>"
                  for i, r in enumerate(seats)) + "</table>"
        + f"<p>First-player advantage: the first seat wins <span data-key='first_seat.rate'>"
        f"{_pct(first['rate'])}</span> of games against a fair share of "
        f"<span data-key='fair_share'>{_pct(fair)}</span>: "
        f"<span data-key='first_seat.advantage'>{100 * first['advantage']:+.1f}</span> points."
        f"</p><p>Draws: <span data-key='draw_rate.count'>{summary['draw_rate']['count']}</span>"
        f" of <span data-key='draw_rate.of'>{summary['draw_rate']['of']}</span> games "
        f"(<span data-key='draw_rate.rate'>{_pct(summary['draw_rate']['rate'])}</span>, 95% "
        f"interval <span data-key='draw_rate.interval'>{_pct(summary['draw_rate']['interval'][0])}"
        f" – {_pct(summary['draw_rate']['interval'][1])}</span>).</p></section>")
    agents = summary["by_agent"]
    if len(agents) > 1 or summary.get("rotate"):
        sections.append(
            "<section id='agents'><h2>Win rate per agent</h2><figure class='plot'>"
            + _rates_plot(list(agents), list(agents.values()), fair,
                          "Win rate per agent, over the seats it took (95% interval)")
            + "</figure><table><tr><th>agent</th>" + RATE_HEAD.replace("games", "seats")
            + "</tr>" + "".join(f"<tr><td>{e(a)}</td>{_rate_cells(f'by_agent.{a}', r)}</tr>"
                                for a, r in agents.items()) + "</table></section>")
    turns, decisions = summary["turns"], summary["decisions"]
    sections.append(
        "<section id='length'><h2>Game length</h2><figure class='plot'>"
        + _histogram_plot(turns["histogram"], "turns", "Game length in turns")
        + "</figure><figure class='plot'>"
        + _histogram_plot(decisions["histogram"], "decisions", "Game length in decisions")
        + f"</figure><p>Turns: min <span data-key='turns.min'>{turns['min']}</span>, mean "
        f"<span data-key='turns.mean'>{turns['mean']}</span>, max <span data-key='turns.max'>"
        f"{turns['max']}</span>. Decisions: mean <span data-key='decisions.mean'>"
        f"{decisions['mean']}</span>.</p></section>")
    endings = summary["endings"]
    sections.append(
        "<section id='endings'><h2>How games ended</h2><figure class='plot'>"
        + _bars_plot(list(endings), list(endings.values()), "How games ended", "games")
        + "</figure><table><tr><th>ending</th><th>games</th></tr>"
        + "".join(f"<tr><td>{e(k)}</td><td data-key='endings.{e(k)}'>{v}</td></tr>"
                  for k, v in endings.items()) + "</table></section>")
    cards = summary["cards"]
    if cards:
        shown = cards[:TOP_CARDS]
        sections.append(
            "<section id='cards'><h2>Cards played</h2><figure class='plot'>"
            + _bars_plot([name(c["card"]) for c in shown], [c["plays"] for c in shown],
                         f"Most played cards (top {len(shown)} of {len(cards)})", "plays")
            + "</figure><p>A card's win rate: of the games in which a power played it, the "
            "share that power won.</p><table><tr><th>card</th><th>plays</th><th>games</th>"
            "<th>wins</th><th>win rate</th><th>95% interval</th></tr>"
            + "".join(f"<tr><td>{e(name(c['card']))}</td>"
                      f"<td data-key='cards.{i}.plays'>{c['plays']}</td>"
                      f"<td data-key='cards.{i}.games'>{c['games']}</td>"
                      f"<td data-key='cards.{i}.win_rate.count'>{c['win_rate']['count']}</td>"
                      f"<td data-key='cards.{i}.win_rate.rate'>{_pct(c['win_rate']['rate'])}</td>"
                      f"<td data-key='cards.{i}.win_rate.interval'>"
                      f"{_pct(c['win_rate']['interval'][0])} – "
                      f"{_pct(c['win_rate']['interval'][1])}</td></tr>"
                      for i, c in enumerate(cards)) + "</table></section>")
    scores = summary["scores"]
    sections.append(
        "<section id='scores'><h2>Final scores</h2><figure class='plot'>"
        + _scores_plot([name(p) for p in scores], [scores[p]["histogram"] for p in scores])
        + "</figure><table><tr><th>power</th><th>min</th><th>mean</th><th>max</th></tr>"
        + "".join(f"<tr><td>{e(name(p))}</td><td data-key='scores.{p}.min'>{s['min']}</td>"
                  f"<td data-key='scores.{p}.mean'>{s['mean']}</td>"
                  f"<td data-key='scores.{p}.max'>{s['max']}</td></tr>"
                  for p, s in scores.items()) + "</table></section>")
    errors = summary["errors"]
    sections.append(
        f"<section id='errors'><h2>Errors: <span data-key='errors.length'>{len(errors)}</span>"
        "</h2>" + ("<p>No game failed.</p>" if not errors else
                   "<table><tr><th>seed</th><th>error</th><th>reproduce</th></tr>"
                   + "".join(f"<tr><td>{err['seed']}</td><td>{e(err['message'])}</td>"
                             f"<td><code>{e(err.get('command', ''))}</code></td></tr>"
                             for err in errors) + "</table>") + "</section>")
    warnings = summary.get("warnings") or {}
    sections.append(
        "<section id='warnings'><h2>Warnings: <span data-key='warnings.length'>"
        f"{len(warnings)}</span> kinds</h2>"
        + ("<p>No game met a warning.</p>" if not warnings else
           "<p>What the rules could not settle while the games were played (each warning "
           "counted once per game).</p><table><tr><th>code</th><th>games</th><th>times</th>"
           "<th>first seed</th><th>first warning</th></tr>"
           + "".join(f"<tr><td>{e(code)}</td><td data-key='warnings.{e(code)}.games'>"
                     f"{w['games']}</td><td data-key='warnings.{e(code)}.count'>{w['count']}"
                     f"</td><td data-key='warnings.{e(code)}.first.seed'>{w['first']['seed']}"
                     f"</td><td><code>{e(w['first']['warning'])}</code></td></tr>"
                     for code, w in warnings.items()) + "</table>") + "</section>")
    done = summary["finished"] + len(errors)
    title = f"Balance report: {summary['game']}"
    head = (f"<p><span data-key='finished'>{summary['finished']}</span> finished games"
            f" of <span data-key='requested'>{summary['requested']}</span> asked for"
            f"{' (interrupted after ' + str(done) + ')' if summary.get('interrupted') else ''}"
            f", seeds {summary['seed']}–{summary['seed'] + summary['requested'] - 1}, agents "
            f"<code>{e(','.join(summary['agents']))}</code>"
            f"{' rotated through the seats' if summary.get('rotate') else ''}.</p>")
    data = json.dumps(summary, sort_keys=True).replace("</", "<\\/")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>
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


def write_report(path: Path, summary: dict, localizer: Any = None) -> None:
    path.write_text(render(summary, localizer), encoding="utf-8")

// cryptobench's published site, an algorithm's page: one chart for the chosen question (operation and
// size), a line per provider (and machine) over time, the 95% interval as a bar at each point, a
// dashed line at each change point. Drawn by ECharts from the JSON block #cryptobench-site
// (cryptobench/report/site/algorithm.py); every text that reaches HTML (the tooltips) goes through
// esc(). A point is [run's index in D.runs, median, low, high, library version]. The address's hash (#q=2&m=0&p=1, written by the changes list) chooses question, machine
// and provider; a click on a point opens its run, on a change line the comparison of its two runs.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("cryptobench-site").textContent);
  var pickQ = document.getElementById("pick-q");
  var pickM = document.getElementById("pick-m");
  var pickP = document.getElementById("pick-p");
  var el = document.getElementById("history");
  var empty = document.getElementById("history-empty");
  var title = document.getElementById("history-title");
  var PALETTE = [
    "#4e79a7",
    "#f28e2b",
    "#59a14f",
    "#b07aa1",
    "#76b7b2",
    "#edc948",
    "#ff9da7",
    "#9c755f",
    "#17becf",
    "#bcbd22",
    "#8c6d31",
    "#393b79",
    "#222222",
  ];
  var VERDICT = { slower: "#d62728", faster: "#2ca02c" };
  var chart = null;

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  function num(v) {
    if (v === null || v === undefined || isNaN(v)) return "-";
    return Math.abs(v) >= 100 ? Math.round(v).toLocaleString("en-US") : v.toPrecision(3);
  }

  // Only values the page offers are taken from the address: anything else leaves the choice as it is.
  function fromHash() {
    var h = window.location.hash.replace(/^#/, "");
    h.split("&").forEach(function (kv) {
      var parts = kv.split("=");
      var sel = { q: pickQ, m: pickM, p: pickP }[parts[0]];
      if (!sel || parts.length !== 2) return;
      for (var i = 0; i < sel.options.length; i++) {
        if (sel.options[i].value === parts[1]) sel.value = parts[1];
      }
    });
  }

  function lineName(s) {
    return D.providers[s.p] + (D.machines.length > 1 ? " on " + D.machines[s.m] : "");
  }

  function option(q, lines) {
    var series = [];
    lines.forEach(function (s, n) {
      var color = PALETTE[(s.p * (D.machines.length > 1 ? D.machines.length : 1) + s.m) % PALETTE.length];
      var pts = s.points.map(function (p) {
        var run = D.runs[p[0]];
        return {
          run: run.id,
          started: run.started,
          t: run.t,
          commit: run.commit,
          features: run.features,
          href: run.href,
          value: p[1],
          low: p[2],
          high: p[3],
          library: p[4],
        };
      });
      var at = pts;
      pts = pts.filter(function (p) {
        return p.t !== null;
      });
      var marks = s.changes
        .map(function (c) {
          var before = at[c.index - 1],
            after = at[c.index];
          var x = before.t !== null && after.t !== null ? (before.t + after.t) / 2 : after.t;
          return {
            xAxis: x,
            change: c,
            label: { formatter: (c.percent > 0 ? "+" : "") + c.percent.toFixed(1) + "% " + c.verdict },
            lineStyle: { color: VERDICT[c.verdict] || "#888", type: "dashed", width: 2 },
          };
        })
        .filter(function (m) {
          return m.xAxis !== null;
        });
      series.push({
        type: "line",
        name: lineName(s),
        color: color,
        z: 3,
        symbolSize: 8,
        lineStyle: { width: 2 },
        emphasis: { focus: "series" },
        data: pts.map(function (p) {
          return { value: [p.t, p.value], pt: p };
        }),
        markLine: {
          symbol: "none",
          data: marks,
          label: { position: "insideEndTop", color: "#333" },
          tooltip: {
            formatter: function (m) {
              var c = m.data.change;
              return (
                esc(lineName(s)) +
                "<br>change point: " +
                esc((c.percent > 0 ? "+" : "") + c.percent.toFixed(1) + "% " + c.verdict) +
                "<br>click: compare the two runs"
              );
            },
          },
        },
      });
      series.push({
        type: "custom",
        name: lineName(s),
        silent: true,
        z: 2,
        data: pts.map(function (p) {
          return [p.t, p.low, p.high];
        }),
        renderItem: function (params, api) {
          var lo = api.coord([api.value(0), api.value(1)]),
            hi = api.coord([api.value(0), api.value(2)]);
          return {
            type: "line",
            shape: { x1: lo[0], y1: lo[1], x2: hi[0], y2: hi[1] },
            style: { stroke: color, lineWidth: 1.5 },
          };
        },
      });
    });
    var unit = lines[0].unit;
    return {
      animation: false,
      textStyle: { fontFamily: 'system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif' },
      legend: { type: "scroll", top: 0 },
      grid: { left: 80, right: 40, top: 40, bottom: 40 },
      tooltip: {
        trigger: "item",
        confine: true,
        formatter: function (it) {
          if (!it.data || !it.data.pt) return "";
          var p = it.data.pt;
          return (
            "<b>" +
            esc(it.seriesName) +
            "</b><br>run " +
            esc(p.run) +
            " · " +
            esc(p.started) +
            "<br>" +
            esc(num(p.value)) +
            " " +
            esc(unit) +
            " [" +
            esc(num(p.low)) +
            ", " +
            esc(num(p.high)) +
            "]<br>library " +
            esc(p.library || "?") +
            " · commit " +
            esc(p.commit || "?") +
            (p.features ? "<br>CPU features off: " + esc(p.features) : "") +
            "<br>click: open the run"
          );
        },
      },
      xAxis: { type: "time", name: "run started", nameLocation: "middle", nameGap: 26 },
      yAxis: { type: "value", name: unit, scale: true, nameLocation: "middle", nameGap: 58 },
      series: series,
    };
  }

  function show() {
    var q = Number(pickQ.value),
      m = pickM.value,
      p = pickP.value;
    var question = D.questions[q];
    document.querySelectorAll("section.question").forEach(function (sec) {
      sec.hidden = sec.getAttribute("data-q") !== String(q);
      sec.querySelectorAll("tr[data-m]").forEach(function (tr) {
        tr.hidden = (m !== "" && tr.getAttribute("data-m") !== m) || (p !== "" && tr.getAttribute("data-p") !== p);
      });
    });
    title.textContent = question.title;
    var lines = question.series.filter(function (s) {
      return (m === "" || String(s.m) === m) && (p === "" || String(s.p) === p);
    });
    // tools/html-check counts every .chart with ink: a chart hidden for this choice is not one
    if (!lines.length) {
      if (chart) chart.clear();
      el.hidden = true;
      el.classList.remove("chart");
      empty.hidden = false;
      return 0;
    }
    el.hidden = false;
    el.classList.add("chart");
    empty.hidden = true;
    if (!chart) {
      chart = echarts.init(el, null, { renderer: "canvas" });
      chart.on("click", function (e) {
        var href =
          e.componentType === "markLine"
            ? e.data && e.data.change && e.data.change.href
            : e.data && e.data.pt && e.data.pt.href;
        if (href) window.location.href = href;
      });
      window.addEventListener("resize", function () {
        chart.resize();
      });
    }
    chart.setOption(option(question, lines), true);
    return 1;
  }

  function update() {
    var drawn = 0;
    try {
      drawn = show();
    } catch (e) {
      console.error("history chart: " + e);
    }
    document.body.dataset.charts = String(drawn);
    document.body.dataset.expectedCharts = String(el.classList.contains("chart") ? 1 : 0);
  }

  pickQ.value = String(D.initial);
  fromHash();
  [pickQ, pickM, pickP].forEach(function (sel) {
    sel.addEventListener("change", update);
  });
  window.addEventListener("hashchange", function () {
    fromHash();
    update();
  });
  update();
  document.body.dataset.ready = "1";
})();

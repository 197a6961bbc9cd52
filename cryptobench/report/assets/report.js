// cryptobench HTML report: draws the charts that cryptobench/report/formats/html/charts.py specified.
// The figures come from the JSON block #cryptobench-data; every text that reaches HTML
// (the tooltips) goes through esc(); the charts themselves are drawn on canvas.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("cryptobench-data").textContent);
  var FONT = 'system-ui, -apple-system, "Segoe UI", "DejaVu Sans", "Liberation Sans", sans-serif';
  var AXIS = "#555";
  var GRIDLINE = "#e6e6e6";

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  // n in the first unit (binary ones first, largest first) that divides it: 4 KiB, 1 MB; 1500 B.
  function fmtSize(n) {
    var units = [
      ["GiB", 1073741824],
      ["MiB", 1048576],
      ["KiB", 1024],
      ["GB", 1e9],
      ["MB", 1e6],
      ["kB", 1e3],
    ];
    for (var i = 0; i < units.length; i++) {
      if (n >= units[i][1] && n % units[i][1] === 0) return n / units[i][1] + " " + units[i][0];
    }
    return Math.round(n) + " B";
  }

  // Three significant figures, with thousands separators: 1,234 · 56.7 · 8.90 · 0.123
  function fmtNum(v) {
    if (v === null || v === undefined || isNaN(v)) return "-";
    var a = Math.abs(v);
    if (a >= 100) return Math.round(v).toLocaleString("en-US");
    if (a >= 10) return v.toFixed(1);
    if (a >= 1) return v.toFixed(2);
    return v.toPrecision(3);
  }

  function fmtOps(v) {
    if (v === null || v === undefined || isNaN(v)) return "-";
    if (v >= 1e6) return (v / 1e6).toFixed(v >= 1e8 ? 0 : 2) + " M";
    if (v >= 1e3) return (v / 1e3).toFixed(v >= 1e5 ? 0 : 1) + " k";
    return fmtNum(v);
  }

  function fmtAxisRate(v) {
    if (v >= 1e6) return v / 1e6 + "M";
    if (v >= 1e3) return v / 1e3 + "k";
    return String(v);
  }

  function speedText(sp) {
    if (!sp) return "no baseline figure";
    if (sp.verdict === "baseline") return "baseline";
    return sp.x.toFixed(2) + "× [" + sp.lo.toFixed(2) + "–" + sp.hi.toFixed(2) + "] " + sp.verdict;
  }

  function pointTooltip(title, provider, where, pt, unit) {
    var val = unit === "ops/s" ? fmtOps(pt.v) : fmtNum(pt.v);
    var lines = [
      "<b>" + esc(provider) + "</b>",
      esc(title) + (where ? " · " + esc(where) : ""),
      "<b>" +
        esc(val) +
        " " +
        esc(unit) +
        "</b> ±" +
        esc(pt.ci) +
        "% (95% CI " +
        esc(unit === "ops/s" ? fmtOps(pt.lo) : fmtNum(pt.lo)) +
        "–" +
        esc(unit === "ops/s" ? fmtOps(pt.hi) : fmtNum(pt.hi)) +
        ")",
      "vs baseline: " + esc(speedText(pt.speed)),
    ];
    if (pt.differs) lines.push('<span style="color:#d62728">⚠ output differs from other providers</span>');
    if (pt.notes && pt.notes.length) lines.push("notes: " + esc(pt.notes.join("; ")));
    return lines.join("<br>");
  }

  var measure = document.createElement("canvas").getContext("2d");
  measure.font = "12px " + FONT;

  // How many lines the legend wraps to in a chart `width` px wide (ECharts wraps a plain legend itself).
  function legendRows(names, width) {
    var avail = width - 20,
      rows = 1,
      x = 0;
    names.forEach(function (n) {
      var w = 18 + 5 + measure.measureText(n).width + 14;
      if (x > 0 && x + w > avail) {
        rows++;
        x = 0;
      }
      x += w;
    });
    return rows;
  }

  function baseOption(names, width) {
    var rows = names ? legendRows(names, width) : 0;
    return {
      animation: false,
      textStyle: { fontFamily: FONT, fontSize: 12, color: "#333" },
      tooltip: { trigger: "item", confine: true, textStyle: { fontFamily: FONT, fontSize: 12 } },
      legend: {
        type: "plain",
        top: 0,
        left: "center",
        padding: [2, 10],
        itemGap: 14,
        textStyle: { fontSize: 12 },
        itemWidth: 18,
        itemHeight: 10,
      },
      legendHeight: rows * 20,
    };
  }

  function finish(opt) {
    var extra = opt.legendHeight || 0;
    delete opt.legendHeight;
    if (opt.grid) opt.grid.top = (opt.grid.top || 0) + extra;
    opt.legendExtra = Math.max(0, extra - 20); // the container grows by the legend's lines past the first
    return opt;
  }

  function axisCommon(extra) {
    var a = {
      nameLocation: "middle",
      nameTextStyle: { color: AXIS, fontSize: 12, fontWeight: "bold" },
      axisLine: { lineStyle: { color: "#999" } },
      axisLabel: { color: AXIS, fontSize: 11 },
      splitLine: { lineStyle: { color: GRIDLINE } },
    };
    for (var k in extra) a[k] = extra[k];
    return a;
  }

  // Vertical 95% CI bars with caps, drawn on whatever axes (log or linear) the chart has.
  function errorBars(s) {
    return {
      type: "custom",
      name: s.name,
      silent: true,
      z: 1,
      data: s.points
        .filter(function (p) {
          return p.lo !== null && p.hi !== null;
        })
        .map(function (p) {
          return [p.x, p.lo, p.hi];
        }),
      encode: { x: 0, y: [1, 2] },
      renderItem: function (params, api) {
        var lo = api.coord([api.value(0), api.value(1)]);
        var hi = api.coord([api.value(0), api.value(2)]);
        var w = 4;
        var style = { stroke: s.color, lineWidth: 1.5 };
        return {
          type: "group",
          children: [
            { type: "line", shape: { x1: lo[0], y1: lo[1], x2: hi[0], y2: hi[1] }, style: style },
            { type: "line", shape: { x1: lo[0] - w, y1: lo[1], x2: lo[0] + w, y2: lo[1] }, style: style },
            { type: "line", shape: { x1: hi[0] - w, y1: hi[1], x2: hi[0] + w, y2: hi[1] }, style: style },
          ],
        };
      },
    };
  }

  function seriesName(s) {
    if (s.flagged) return s.provider + " ⚠ pathology";
    return s.baseline ? s.provider + " (baseline)" : s.provider;
  }

  function lineChart(spec, title, xName, xFmt, width) {
    var opt = baseOption(spec.series.map(seriesName), width);
    var lines = [],
      bars = [];
    spec.series.forEach(function (s) {
      var name = seriesName(s);
      var line = {
        type: "line",
        name: name,
        z: 3,
        color: s.color,
        symbol: s.flagged ? "triangle" : s.baseline ? "rect" : "circle",
        symbolSize: s.flagged ? 11 : 7,
        lineStyle: { width: s.baseline || s.flagged ? 3 : 2, color: s.color },
        itemStyle: { color: s.color },
        emphasis: { focus: "series" },
        data: s.points.map(function (p) {
          return { value: [p.x, p.v], pt: p };
        }),
        tooltip: {
          formatter: function (params) {
            return pointTooltip(title, s.provider, xFmt(params.data.pt.x), params.data.pt, spec.unit || "MB/s");
          },
        },
      };
      if (s.oneshot) {
        line.markLine = {
          silent: true,
          symbol: "none",
          label: { show: false },
          lineStyle: { type: "dotted", width: 1.5, color: s.color },
          data: [{ yAxis: s.oneshot }],
        };
      }
      lines.push(line);
      bars.push(errorBars({ name: name, color: s.color, points: s.points }));
    });
    opt.grid = { left: 70, right: 28, top: 22, bottom: 58 };
    opt.xAxis = axisCommon({
      type: "log",
      logBase: 4,
      name: xName,
      nameGap: 32,
      axisLabel: { color: AXIS, fontSize: 11, formatter: xFmt },
    });
    opt.yAxis = axisCommon({
      type: "log",
      logBase: 10,
      name: "MB/s (10⁶ bytes/s, log scale)",
      nameGap: 50,
      axisLabel: { color: AXIS, fontSize: 11, formatter: fmtAxisRate },
      minorTick: { show: true },
      minorSplitLine: { show: true, lineStyle: { color: "#f4f4f4" } },
    });
    opt.series = lines.concat(bars);
    return finish(opt);
  }

  // Horizontal bars in panels (one per size or operation), providers down, each panel on its own
  // linear scale starting at zero; a whisker at each bar's end is the 95% CI.
  var PANEL = { top: 4, title: 24, row: 22, axis: 24, gap: 12, bottom: 22 }; // as html.py's PANEL

  function panelChart(spec) {
    var opt = baseOption(null, 0);
    delete opt.legend;
    var fmt = spec.unit === "ops/s" ? fmtOps : fmtNum;
    var names = spec.providers.map(function (p) {
      return p.baseline ? p.provider + " (baseline)" : p.provider;
    });
    var labelW = 0;
    names.forEach(function (n) {
      labelW = Math.max(labelW, measure.measureText(n).width);
    });
    var rows = spec.providers.length;
    opt.grid = [];
    opt.xAxis = [];
    opt.yAxis = [];
    opt.series = [];
    opt.title = [];
    var y = PANEL.top;
    spec.panels.forEach(function (panel, i) {
      var h = rows * PANEL.row;
      var last = i === spec.panels.length - 1;
      opt.title.push({
        text: panel.label,
        top: y,
        left: 4,
        textStyle: { fontSize: 13, fontWeight: "bold", color: "#333" },
      });
      opt.grid.push({ left: Math.ceil(labelW) + 18, right: 96, top: y + PANEL.title, height: h });
      opt.yAxis.push({
        type: "category",
        gridIndex: i,
        inverse: true,
        data: names,
        axisTick: { show: false },
        axisLine: { lineStyle: { color: "#999" } },
        axisLabel: {
          color: "#333",
          fontSize: 12,
          formatter: function (v, idx) {
            return spec.providers[idx].baseline ? "{b|" + v + "}" : v;
          },
          rich: { b: { fontWeight: "bold", color: "#000", fontSize: 12 } },
        },
      });
      opt.xAxis.push(
        axisCommon({
          type: "value",
          gridIndex: i,
          min: 0,
          name: last ? (spec.unit === "MB/s" ? "MB/s (10⁶ bytes/s)" : "operations per second") : "",
          nameGap: 22,
          axisLabel: { color: AXIS, fontSize: 10, formatter: fmtAxisRate },
        }),
      );
      var data = spec.providers.map(function (p) {
        var pt = panel.points[p.provider];
        if (pt && pt.missing) return { value: 0, missing: pt.missing, itemStyle: { color: p.color } };
        return pt ? { value: pt.v, pt: pt, itemStyle: { color: p.color } } : { value: null };
      });
      opt.series.push({
        type: "bar",
        xAxisIndex: i,
        yAxisIndex: i,
        barWidth: 14,
        name: panel.label,
        itemStyle: { borderRadius: [0, 3, 3, 0] },
        data: data,
        label: {
          // the figures are drawn past the whisker by the custom series below; here only a missing cell
          show: true,
          position: "right",
          distance: 8,
          fontSize: 11,
          color: "#c62828",
          fontStyle: "italic",
          formatter: function (p) {
            return p.data && p.data.missing ? p.data.missing : "";
          },
        },
        tooltip: {
          formatter: function (params) {
            var pt = params.data.pt,
              who = spec.providers[params.dataIndex].provider;
            if (params.data.missing)
              return "<b>" + esc(who) + "</b><br>" + esc(panel.label) + ": " + esc(params.data.missing);
            return pt ? pointTooltip(spec.title || "", who, panel.label, pt, spec.unit) : "";
          },
        },
      });
      var marks = [];
      spec.providers.forEach(function (p, idx) {
        var pt = panel.points[p.provider];
        if (!pt || pt.missing || pt.v === null) return;
        var sp = pt.speed && pt.speed.verdict !== "baseline" ? "  " + pt.speed.x.toFixed(2) + "×" : "";
        var lo = pt.lo === null ? pt.v : pt.lo,
          hi = pt.hi === null ? pt.v : pt.hi;
        marks.push({ value: [lo, hi, idx, pt.v], text: fmt(pt.v) + sp + (pt.differs ? " ⚠" : "") });
      });
      opt.series.push({
        type: "custom",
        xAxisIndex: i,
        yAxisIndex: i,
        silent: true,
        z: 3,
        data: marks,
        encode: { x: [0, 1], y: 2 },
        renderItem: function (params, api) {
          var a = api.coord([api.value(0), api.value(2)]);
          var b = api.coord([api.value(1), api.value(2)]);
          var end = api.coord([api.value(3), api.value(2)]);
          var w = 4,
            style = { stroke: "#555", lineWidth: 1.2 };
          var children = [
            {
              type: "text",
              x: Math.max(b[0], end[0]) + 6,
              y: b[1],
              style: {
                text: marks[params.dataIndex].text,
                fill: "#333",
                font: "11px " + FONT,
                verticalAlign: "middle",
              },
            },
          ];
          if (b[0] - a[0] >= 1) {
            children.push(
              { type: "line", shape: { x1: a[0], y1: a[1], x2: b[0], y2: b[1] }, style: style },
              { type: "line", shape: { x1: a[0], y1: a[1] - w, x2: a[0], y2: a[1] + w }, style: style },
              { type: "line", shape: { x1: b[0], y1: b[1] - w, x2: b[0], y2: b[1] + w }, style: style },
            );
          }
          return { type: "group", children: children };
        },
      });
      y += PANEL.title + h + PANEL.axis + PANEL.gap;
    });
    opt.panelHeight = y + PANEL.bottom;
    return opt;
  }

  function heatmap(spec) {
    var opt = baseOption(null, 0);
    delete opt.legend;
    var maxAbs = 1;
    spec.cells.forEach(function (c) {
      maxAbs = Math.max(maxAbs, Math.abs(c.log2));
    });
    var M = Math.min(3, Math.ceil(maxAbs - 1e-9));
    var longest = 0;
    spec.rows.forEach(function (r) {
      longest = Math.max(longest, measure.measureText(r).width);
    });
    opt.grid = { left: Math.ceil(longest) + 24, right: 24, top: 56, bottom: 64 };
    opt.xAxis = {
      type: "category",
      position: "top",
      data: spec.providers.map(function (p) {
        return p === spec.baseline ? p + "\n(baseline)" : p;
      }),
      axisLabel: { interval: 0, color: "#333", fontSize: 12, fontWeight: "bold", lineHeight: 16 },
      axisTick: { show: false },
      axisLine: { show: false },
      splitArea: { show: false },
    };
    opt.yAxis = {
      type: "category",
      inverse: true,
      data: spec.rows,
      axisLabel: { color: "#333", fontSize: 12 },
      axisTick: { show: false },
      axisLine: { show: false },
    };
    opt.visualMap = {
      type: "continuous",
      seriesIndex: 0,
      min: -M,
      max: M,
      calculable: false,
      orient: "horizontal",
      left: "center",
      bottom: 4,
      itemWidth: 12,
      itemHeight: 260,
      precision: 2,
      text: [Math.pow(2, M).toFixed(2) + "× faster", Math.pow(2, -M).toFixed(2) + "× slower"],
      textStyle: { color: AXIS, fontSize: 11 },
      formatter: function (v) {
        return Math.pow(2, v).toFixed(2) + "×";
      },
      inRange: { color: ["#b2182b", "#ef8a62", "#fddbc7", "#f7f7f7", "#d1e5f0", "#67a9cf", "#2166ac"] },
    };
    opt.series = [
      {
        type: "heatmap",
        name: "speed",
        data: spec.cells.map(function (c) {
          var dark = Math.abs(c.log2) / M > 0.55;
          return {
            value: [c.x, c.y, Math.max(-M, Math.min(M, c.log2))],
            c: c,
            label: { color: dark ? "#fff" : "#222" },
          };
        }),
        itemStyle: { borderColor: "#fff", borderWidth: 2 },
        label: {
          show: true,
          fontSize: 12,
          fontWeight: "bold",
          formatter: function (p) {
            var c = p.data.c;
            return c.speed.x.toFixed(2) + "×" + (c.differs ? " ⚠" : "");
          },
        },
        tooltip: {
          formatter: function (p) {
            var c = p.data.c;
            return (
              cellHeading(spec, c) +
              "speed: " +
              esc(speedText(c.speed)) +
              (c.differs ? '<br><span style="color:#d62728">⚠ output differs</span>' : "")
            );
          },
        },
      },
      {
        type: "heatmap",
        name: "missing",
        data: spec.missing.map(function (m) {
          return { value: [m.x, m.y, 0], m: m };
        }),
        itemStyle: { color: "#eeeeee", borderColor: "#fff", borderWidth: 2 },
        label: {
          show: true,
          color: "#777",
          fontSize: 11,
          formatter: function (p) {
            return p.data.m.text;
          },
        },
        tooltip: {
          formatter: function (p) {
            var m = p.data.m;
            return cellHeading(spec, m) + esc(m.text) + (m.reason ? ": " + esc(m.reason) : "");
          },
        },
      },
    ];
    return finish(opt);
  }

  // A heatmap cell's tooltip heading: its provider (bold) and its row, each on a line.
  function cellHeading(spec, cell) {
    return "<b>" + esc(spec.providers[cell.x]) + "</b><br>" + esc(spec.rows[cell.y]) + "<br>";
  }

  // Speed against release (the versions layout): the line chart of one provider's releases, x is
  // the release's index (labelled with its version, evenly spaced), y the speed on a log scale.
  function versionChart(spec, title, width) {
    var label = function (i) {
      return spec.versions[i] === undefined ? "" : spec.versions[i];
    };
    var opt = lineChart(spec, title, "release", label, width);
    opt.xAxis = axisCommon({
      type: "value",
      min: -0.25,
      max: spec.versions.length - 0.75,
      interval: 1,
      name: "release",
      nameGap: 32,
      axisLabel: {
        color: AXIS,
        fontSize: 11,
        formatter: function (v) {
          return Number.isInteger(v) ? label(v) : "";
        },
      },
    });
    opt.yAxis.name = spec.unit + " (log scale)";
    return opt;
  }

  function build(spec, title, width) {
    switch (spec.kind) {
      case "throughput":
        return lineChart(spec, title, "message size (bytes, log scale)", fmtSize, width);
      case "granularity":
        return lineChart(spec, title, "chunk size (bytes, log scale)", fmtSize, width);
      case "bars":
      case "pubkey":
        return panelChart(spec);
      case "heatmap":
        return heatmap(spec);
      case "versions":
        return versionChart(spec, title, width);
    }
    throw new Error("unknown chart kind " + spec.kind);
  }

  var charts = [];
  var drawn = 0;
  document.querySelectorAll(".chart").forEach(function (el) {
    var spec = D.charts[Number(el.dataset.chart)];
    var fig = el.closest("figure");
    var title = fig ? fig.querySelector(".fig-title").textContent : "";
    spec.title = title;
    try {
      var opt = build(spec, title, el.clientWidth);
      if (opt.legendExtra) el.style.height = el.clientHeight + opt.legendExtra + "px";
      if (opt.panelHeight) el.style.height = opt.panelHeight + "px";
      delete opt.legendExtra;
      delete opt.panelHeight;
      var chart = echarts.init(el, null, { renderer: "canvas" });
      chart.setOption(opt);
      charts.push(chart);
      drawn++;
    } catch (e) {
      console.error("chart " + el.id + " (" + spec.kind + "): " + e);
    }
  });
  window.addEventListener("resize", function () {
    charts.forEach(function (c) {
      c.resize();
    });
  });
  document.body.dataset.charts = String(drawn);
  document.body.dataset.expectedCharts = String(D.charts.length);
  document.body.dataset.ready = "1";
})();

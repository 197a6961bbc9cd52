// cryptobench history charts: one line per series (median and its 95% interval over runs), a
// vertical mark at each change point. Drawn by ECharts from the JSON block #cryptobench-history;
// a point's tooltip names its run, commit and library version (escaped), and links to its run page.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("cryptobench-history").textContent);

  function esc(s) {
    return String(s).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  D.series.forEach(function (s, n) {
    var el = document.getElementById("history-" + n);
    if (!el) return;
    var chart = echarts.init(el, null, { renderer: "canvas" });
    var xs = s.points.map(function (p, i) {
      return i + 1;
    });
    var marks = s.changes.map(function (c) {
      return {
        xAxis: c.index + 0.5,
        label: { formatter: (c.percent > 0 ? "+" : "") + c.percent.toFixed(1) + "% " + c.verdict },
        lineStyle: { color: c.verdict === "slower" ? "#d62728" : c.verdict === "faster" ? "#2ca02c" : "#888" },
      };
    });
    chart.setOption({
      animation: false,
      grid: { left: 70, right: 30, top: 30, bottom: 40 },
      tooltip: {
        trigger: "axis",
        formatter: function (items) {
          var p = s.points[items[0].dataIndex];
          return (
            "run " +
            esc(p.run) +
            " · " +
            esc(p.started) +
            "<br>" +
            esc(s.unit) +
            " " +
            p.value.toPrecision(4) +
            " [" +
            p.low.toPrecision(4) +
            ", " +
            p.high.toPrecision(4) +
            "]<br>commit " +
            esc(p.commit || "?") +
            " · " +
            esc(p.library || "?") +
            (p.features ? "<br>CPU features off: " + esc(p.features) : "")
          );
        },
      },
      xAxis: { type: "value", name: "run", min: 0.5, max: xs.length + 0.5, minInterval: 1 },
      yAxis: { type: "value", name: s.unit, scale: true },
      series: [
        {
          type: "line",
          name: "median",
          data: s.points.map(function (p, i) {
            return [i + 1, p.value];
          }),
          symbolSize: 7,
          markLine: { symbol: "none", data: marks },
        },
        {
          type: "custom",
          name: "95% interval",
          data: s.points.map(function (p, i) {
            return [i + 1, p.low, p.high];
          }),
          renderItem: function (params, api) {
            var lo = api.coord([api.value(0), api.value(1)]);
            var hi = api.coord([api.value(0), api.value(2)]);
            return {
              type: "line",
              shape: { x1: lo[0], y1: lo[1], x2: hi[0], y2: hi[1] },
              style: { stroke: "#4e79a7" },
            };
          },
        },
      ],
    });
    chart.on("click", function (e) {
      var p = s.points[e.dataIndex];
      if (p && p.href) window.location.href = p.href;
    });
    el.setAttribute("data-drawn", "1");
  });
  // tools/html-check/check.mjs waits for this, then counts the charts with ink against the expected number
  document.body.dataset.expectedCharts = String(D.series.length);
  document.body.dataset.ready = "1";
})();

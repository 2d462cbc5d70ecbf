// kerncast HTML reports: turns the report's charts (JSON in #kerncast-charts, written by
// src/report/html_printer.cpp) into Chart.js configurations and draws them. It computes
// nothing about the data; it only maps the chart description onto Chart.js. After drawing it
// writes, into #kerncast-chart-check, how many data points each chart was given and how many
// Chart.js placed inside the chart area, for the browser test (tests/browser/).
(function () {
  "use strict";
  // Colour-blind-safe qualitative palette (Okabe & Ito, 2008) plus greys for long series.
  const palette = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
                   "#F0E442", "#000000", "#999999", "#7F3C8D", "#11A579", "#3969AC"];
  const markers = ["circle", "triangle", "rect", "rectRot", "star", "crossRot", "cross"];

  function axisTitle(axis) {
    return axis.unit ? axis.label + " (" + axis.unit + ")" : axis.label;
  }

  function scale(axis, type, stacked) {
    return {
      type: axis.logarithmic ? "logarithmic" : type,
      stacked: stacked,
      title: { display: true, text: axisTitle(axis) },
    };
  }

  function extent(values) {
    const finite = values.filter(Number.isFinite);
    return finite.length ? [Math.min(...finite), Math.max(...finite)] : [0, 1];
  }

  // A log axis fitted to its data: the extent, widened by 4 % of its decades and then to one
  // significant digit (900-2600 us: 800-3000), where Chart.js would span whole decades
  // (100-10000). Linear axes keep Chart.js's own bounds, which already fit the data.
  function fitted(axisScale, range, logarithmic) {
    const [lo, hi] = range;
    if (!logarithmic || !(lo > 0 && hi > 0)) return axisScale;
    const pad = Math.pow(10, Math.max(Math.log10(hi / lo), 0.02) * 0.04);
    const digit = (x, round) => {
      const unit = Math.pow(10, Math.floor(Math.log10(x)));
      return round(x / unit) * unit;
    };
    axisScale.min = digit(lo / pad, Math.floor);
    axisScale.max = digit(hi * pad, Math.ceil);
    return axisScale;
  }

  function referenceLine(label, points) {
    return {
      type: "line", label: label, data: points, kerncastReference: true,
      borderColor: "#777777", borderDash: [6, 4], borderWidth: 1, pointRadius: 0, fill: false,
    };
  }

  function scatterConfig(spec) {
    let plain = 0;
    const datasets = spec.series.map((series) => {
      const dataset = {
        label: series.name,
        data: series.x.map((x, k) => ({ x: x, y: series.y[k] })),
        kerncastLabels: series.point_labels,
      };
      if (series.highlight) {
        // Marked points: large stars drawn over the other series.
        return Object.assign(dataset, {
          backgroundColor: "rgba(255, 255, 255, 0)", borderColor: "#000000", borderWidth: 2,
          pointStyle: "star", pointRadius: 9, order: -1,
        });
      }
      const i = plain++;
      return Object.assign(dataset, {
        backgroundColor: palette[i % palette.length],
        borderColor: palette[i % palette.length],
        pointStyle: markers[Math.floor(i / palette.length) % markers.length],
        pointRadius: 3,
      });
    });
    let xs = extent(spec.series.flatMap((s) => s.x));
    let ys = extent(spec.series.flatMap((s) => s.y));
    if (spec.diagonal) {
      // Predicted against measured: one range on both axes, so y = x is the 45-degree line.
      const lo = Math.min(xs[0], ys[0]), hi = Math.max(xs[1], ys[1]);
      datasets.push(referenceLine("y = x", [{ x: lo, y: lo }, { x: hi, y: hi }]));
      xs = ys = [lo, hi];
    }
    spec.x_markers.forEach((x, i) => datasets.push(referenceLine(
      i === 0 ? "change points" : "", [{ x: x, y: ys[0] }, { x: x, y: ys[1] }])));
    return {
      type: "scatter",
      data: { datasets: datasets },
      scales: {
        x: fitted(scale(spec.x_axis, "linear", false), xs, spec.x_axis.logarithmic),
        y: fitted(scale(spec.y_axis, "linear", false), ys, spec.y_axis.logarithmic),
      },
    };
  }

  function barConfig(spec) {
    const stacked = spec.kind === "stacked_bar";
    return {
      type: "bar",
      data: {
        labels: spec.categories,
        datasets: spec.series.map((series, i) => ({
          label: series.name, data: series.y, backgroundColor: palette[i % palette.length],
          stack: stacked ? series.stack || "all" : undefined,
        })),
      },
      scales: {
        x: scale(spec.x_axis, "category", stacked),
        y: scale(spec.y_axis, "linear", stacked),
      },
    };
  }

  function tooltipLabel(context) {
    const labels = context.dataset.kerncastLabels;
    const text = labels && labels[context.dataIndex] ? labels[context.dataIndex] + ": " : "";
    const value = context.parsed.y;
    return (context.dataset.label ? context.dataset.label + " " : "") + text +
        (context.parsed.x !== undefined && context.chart.config.type === "scatter"
             ? "(" + context.parsed.x + ", " + value + ")" : value);
  }

  // Points Chart.js placed inside the chart area, reference lines left out.
  function drawnPoints(chart) {
    const area = chart.chartArea;
    let drawn = 0;
    chart.data.datasets.forEach((dataset, i) => {
      if (dataset.kerncastReference) return;
      chart.getDatasetMeta(i).data.forEach((element) => {
        const inside = Number.isFinite(element.x) && Number.isFinite(element.y) &&
            element.x >= area.left - 1 && element.x <= area.right + 1 &&
            element.y >= area.top - 1 && element.y <= area.bottom + 1;
        if (inside) drawn += 1;
      });
    });
    return drawn;
  }

  const specs = JSON.parse(document.getElementById("kerncast-charts").textContent);
  const check = [];
  specs.forEach((spec) => {
    const config = spec.kind === "scatter" ? scatterConfig(spec) : barConfig(spec);
    const chart = new Chart(document.getElementById("kerncast-chart-" + spec.index), {
      type: config.type,
      data: config.data,
      options: {
        animation: false,
        responsive: false,
        scales: config.scales,
        plugins: {
          title: { display: true, text: spec.title },
          legend: { display: spec.series.length > 1 || spec.diagonal },
          tooltip: { callbacks: { label: tooltipLabel } },
        },
      },
    });
    const expected = spec.series.reduce((sum, s) => sum + s.y.length, 0);
    check.push({ key: spec.key, expected: expected, drawn: drawnPoints(chart) });
  });
  document.getElementById("kerncast-chart-check").textContent = JSON.stringify(check);
})();

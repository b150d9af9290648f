package com.meetingreminders.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The PNG plots of a run, drawn with XChart. */
final class Plots {

    private static final int BUCKET_MS = 100;

    private Plots() {}

    /** An empty chart of the size and kind every plot here has. */
    private static XYChart chart(String title, String xAxis, String yAxis, Styler.LegendPosition legend) {
        XYChart chart = new XYChartBuilder()
                .width(900)
                .height(520)
                .title(title)
                .xAxisTitle(xAxis)
                .yAxisTitle(yAxis)
                .build();
        chart.getStyler().setLegendPosition(legend);
        return chart;
    }

    /** Lateness CDF: for each series, the share of reminders that arrived within x ms of their due time. */
    static void lateness(Path file, String title, List<Result> series) throws IOException {
        XYChart chart = chart(title, "lateness (ms)", "share delivered", Styler.LegendPosition.InsideSE);
        chart.getStyler().setXAxisLogarithmic(true);
        for (Result result : series) {
            if (result.lateness.isEmpty()) {
                continue;
            }
            int n = result.lateness.size();
            int points = Math.min(n, 2_000);
            double[] x = new double[points];
            double[] y = new double[points];
            for (int i = 0; i < points; i++) {
                int index = (int) ((long) i * (n - 1) / Math.max(1, points - 1));
                x[i] = Math.max(1, result.lateness.get(index));
                y[i] = (index + 1) / (double) n;
            }
            XYSeries line = chart.addSeries(result.system + " (n=" + n + ")", x, y);
            line.setMarker(SeriesMarkers.NONE);
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /** Deliveries per second over the time since the first due time, in 100 ms buckets. */
    static void rate(Path file, String title, List<Result> series) throws IOException {
        XYChart chart = chart(title, "seconds since due", "deliveries per second", Styler.LegendPosition.InsideNE);
        for (Result result : series) {
            if (result.arrivalOffsets.isEmpty()) {
                continue;
            }
            long last = result.arrivalOffsets.stream()
                    .mapToLong(Long::longValue)
                    .max()
                    .orElse(0);
            int buckets = (int) Math.max(1, last / BUCKET_MS + 2);
            double[] counts = new double[buckets];
            for (long offset : result.arrivalOffsets) {
                counts[(int) Math.max(0, offset / BUCKET_MS)] += 1000.0 / BUCKET_MS;
            }
            double[] x = new double[buckets];
            for (int i = 0; i < buckets; i++) {
                x[i] = i * BUCKET_MS / 1000.0;
            }
            XYSeries line = chart.addSeries(result.system, x, counts);
            line.setMarker(SeriesMarkers.NONE);
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}

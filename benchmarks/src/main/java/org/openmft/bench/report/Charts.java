package org.openmft.bench.report;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The report's PNG charts (XChart, rendered headless), in one style: white background, legend
 * below, values as decimals. Every chart is a picture of a table that the report also prints, so
 * that nothing is only in a picture.
 */
public final class Charts {
    static final int WIDTH = 960;
    static final int HEIGHT = 540;

    private Charts() {
    }

    static {
        System.setProperty("java.awt.headless", "true");
    }

    /**
     * Grouped bars: one group per category, one bar per series; a missing value is NaN (no bar).
     *
     * @param series name to one value per category, in legend order
     * @return the markdown that shows it, linking {@code imagesLink/fileName}
     */
    public static String bars(Path images, String imagesLink, String fileName, String title, String yAxis,
            List<String> categories, Map<String, List<Double>> series) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                .yAxisTitle(yAxis).build();
        style(chart.getStyler());
        chart.getStyler().setXAxisLabelRotation(categories.size() > 6 ? 30 : 0);
        chart.getStyler().setOverlapped(false);
        for (Map.Entry<String, List<Double>> e : series.entrySet()) {
            if (e.getValue().size() != categories.size()) {
                throw new IllegalArgumentException(e.getKey() + " has " + e.getValue().size() + " values for "
                        + categories.size() + " categories");
            }
            List<Double> ys = new ArrayList<>();
            for (Double v : e.getValue()) {
                ys.add(v == null || v.isNaN() ? null : v);
            }
            chart.addSeries(e.getKey(), categories, ys);
        }
        legendFor(chart.getStyler(), chart.getSeriesMap().size());
        return save(chart, images, imagesLink, fileName, title);
    }

    /**
     * Lines over a numeric x axis (a logarithmic one when {@code logX}), one per series.
     *
     * @param series name to one y per x, NaN where there is none
     */
    public static String lines(Path images, String imagesLink, String fileName, String title, String xAxis,
            String yAxis, boolean logX, List<Double> xs, Map<String, List<Double>> series) throws IOException {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(xAxis)
                .yAxisTitle(yAxis).build();
        style(chart.getStyler());
        chart.getStyler().setXAxisLogarithmic(logX);
        for (Map.Entry<String, List<Double>> e : series.entrySet()) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int i = 0; i < xs.size(); i++) {
                Double v = e.getValue().get(i);
                if (v != null && !v.isNaN()) {
                    x.add(xs.get(i));
                    y.add(v);
                }
            }
            if (!x.isEmpty()) {
                chart.addSeries(e.getKey(), x, y).setMarker(SeriesMarkers.CIRCLE);
            }
        }
        legendFor(chart.getStyler(), chart.getSeriesMap().size());
        return save(chart, images, imagesLink, fileName, title);
    }

    private static void style(Styler s) {
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderVisible(false);
        s.setLegendPosition(Styler.LegendPosition.OutsideS);
        s.setLegendLayout(Styler.LegendLayout.Horizontal);
        s.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        s.setDecimalPattern("#,##0.##");
        s.setAntiAlias(true);
    }

    /**
     * A horizontal legend below the plot holds a few series; more would run off the picture, so
     * they are listed down the right-hand side instead.
     */
    private static void legendFor(Styler s, int series) {
        if (series > 5) {
            s.setLegendPosition(Styler.LegendPosition.OutsideE);
            s.setLegendLayout(Styler.LegendLayout.Vertical);
        }
    }

    private static String save(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart, Path images,
            String imagesLink, String fileName, String title) throws IOException {
        if (!fileName.endsWith(".png")) {
            throw new IllegalArgumentException("a chart is a .png file, not " + fileName);
        }
        Files.createDirectories(images);
        BitmapEncoder.saveBitmap(chart, images.resolve(fileName).toString(), BitmapEncoder.BitmapFormat.PNG);
        return "![" + title + "](" + imagesLink + "/" + fileName + ")";
    }
}

package org.openmft.rest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Optional;

/**
 * The dashboard's files: plain HTML, JavaScript and CSS from this module's resources, read once.
 * Only these files are served, by exact path: nothing is looked up from a path a client sends.
 */
final class Dashboard {
    /** A file and its content type. */
    record File(byte[] bytes, String contentType) {
    }

    private static final String DIR = "/org/openmft/rest/dashboard/";
    private final Map<String, File> files = Map.of(
            "/", load("index.html", "text/html; charset=utf-8"),
            "/index.html", load("index.html", "text/html; charset=utf-8"),
            "/dashboard/app.js", load("app.js", "text/javascript; charset=utf-8"),
            "/dashboard/app.css", load("app.css", "text/css; charset=utf-8"));

    Optional<File> file(String path) {
        return Optional.ofNullable(files.get(path));
    }

    private static File load(String name, String type) {
        try (InputStream in = Dashboard.class.getResourceAsStream(DIR + name)) {
            if (in == null) {
                throw new IllegalStateException("the dashboard file " + name + " is missing from the jar");
            }
            return new File(in.readAllBytes(), type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package org.openmft.agent.config;

import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/** Reads a properties file into a plain map. Package-private: callers use the typed views. */
final class PropertiesFiles {

    private PropertiesFiles() {
    }

    /**
     * Reads a file in {@link Properties} syntax. Bytes are decoded as UTF-8, falling back to
     * ISO-8859-1 (what IBM's Java tools read) when they are not valid UTF-8, the same choice Java 9+
     * makes for resource bundles: files hand-edited on a modern system are UTF-8, files written by
     * IBM's tools are ASCII with {@code \}{@code uXXXX} escapes and read the same either way.
     *
     * @param file the file
     * @return key to (untrimmed) value
     * @throws ConfigurationException when the file is missing or unreadable
     */
    static Map<String, String> read(Path file) throws ConfigurationException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ConfigurationException(file + " does not exist", e);
        } catch (IOException e) {
            throw new ConfigurationException(file + " cannot be read: " + e, e);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            text = new String(bytes, StandardCharsets.ISO_8859_1);
        }
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(text));
        } catch (IOException | IllegalArgumentException e) {
            // Properties.load throws IllegalArgumentException for a malformed \\uXXXX escape.
            throw new ConfigurationException(file + " is not a valid properties file: " + e.getMessage(), e);
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (String name : properties.stringPropertyNames()) {
            map.put(name, properties.getProperty(name));
        }
        return map;
    }
}

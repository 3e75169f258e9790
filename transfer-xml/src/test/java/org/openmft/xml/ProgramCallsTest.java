package org.openmft.xml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Program calls: IBM's successRC grammar, the CLI form with its escapes, the XML elements and their round trip. */
class ProgramCallsTest {
    private static final String ITEM = "<item>" + Documents.SOURCE + Documents.DESTINATION + "</item>";
    private final RequestParser parser = new RequestParser();

    private static Exception refused(Executable code, String... words) {
        Exception e = assertThrows(Exception.class, code);
        for (String word : words) {
            assertTrue(e.getMessage().contains(word), "expected \"" + word + "\" in: " + e.getMessage());
        }
        return e;
    }

    private static String withCalls(String calls) {
        return Documents.transferSet("", calls + ITEM);
    }

    @Test
    void successCodesFollowIbmsGrammar() {
        SuccessCodes codes = SuccessCodes.of(">2&<7&!5|0|14");
        for (int rc = -3; rc < 20; rc++) {
            boolean expected = rc == 0 || rc == 3 || rc == 4 || rc == 6 || rc == 14;
            assertEquals(expected, codes.accepts(rc), "rc " + rc);
        }
        assertTrue(SuccessCodes.ZERO.accepts(0));
        assertFalse(SuccessCodes.ZERO.accepts(1));
        assertTrue(SuccessCodes.of(" !0 ").accepts(7));
        assertTrue(SuccessCodes.of("-1").accepts(-1));
    }

    @Test
    void badSuccessCodesNameTheTerm() {
        refused(() -> SuccessCodes.of(">2&&<7"), "the term \"\"");
        refused(() -> SuccessCodes.of("0|x"), "\"x\"");
        refused(() -> SuccessCodes.of(">=2"), "\">=2\"");
        refused(() -> SuccessCodes.of(""), "must not be empty");
        refused(() -> SuccessCodes.of("99999999999"), "99999999999");
    }

    @Test
    void cliFormWithEverything() {
        ProgramCall call = CallSpecs.parse("-presrc", "executable:run.sh(a,b c),2,5,>2&<7&!5|0|14");
        assertEquals(new ProgramCall(CallType.EXECUTABLE, "run.sh", List.of("a", "b c"), 2, 5,
                SuccessCodes.of(">2&<7&!5|0|14")), call);
    }

    @Test
    void cliFormDefaultsAndEmptyParts() {
        assertEquals(ProgramCall.executable("notify.sh", List.of()), CallSpecs.parse("-postdst", "notify.sh"));
        assertEquals(ProgramCall.executable("notify.sh", List.of()), CallSpecs.parse("-postdst", "notify.sh()"));
        ProgramCall call = CallSpecs.parse("-postdst", "notify.sh(x),,3");
        assertEquals(0, call.retryCount());
        assertEquals(3, call.retryWaitSeconds());
        assertEquals(SuccessCodes.ZERO, call.successCodes());
        assertEquals(1, CallSpecs.parse("-postdst", "notify.sh,1").retryCount());
        assertEquals(CallType.ANT_SCRIPT, CallSpecs.parse("-postdst", "antscript:build.xml(t1)").type());
    }

    @Test
    void cliEscapes() {
        ProgramCall call = CallSpecs.parse("-predst", "my\\,prog(a\\,b,c\\(d\\),e\\\\f,C:\\dir)");
        assertEquals("my,prog", call.name());
        assertEquals(List.of("a,b", "c(d)", "e\\f", "C:\\dir"), call.arguments());
        assertEquals(call, CallSpecs.parse("-predst", CallSpecs.format(call)));
        ProgramCall all = CallSpecs.parse("-predst", "p(x),3,4,!5");
        assertEquals(all, CallSpecs.parse("-predst", CallSpecs.format(all)));
    }

    @Test
    void badCliFormsNameTheFlagAndTheProblem() {
        Exception e = refused(() -> CallSpecs.parse("-presrc", "run.sh(a"), "not closed");
        assertTrue(e.getMessage().startsWith("-presrc \"run.sh(a\""), e.getMessage());
        refused(() -> CallSpecs.parse("-presrc", "run.sh(a)x"), "after the arguments");
        refused(() -> CallSpecs.parse("-presrc", "run.sh,x"), "retrycount \"x\"");
        refused(() -> CallSpecs.parse("-presrc", "run.sh,1,2,0,9"), "too many parts");
        refused(() -> CallSpecs.parse("-presrc", "(a)"), "program name is missing");
        refused(() -> CallSpecs.parse("-presrc", "run.sh\\"), "escapes nothing");
        refused(() -> CallSpecs.parse("-presrc", "run.sh,-1"), "retryCount -1");
    }

    @Test
    void xmlCallsAreReadInIbmsOrderAndWrittenBack() throws Exception {
        String xml = withCalls("<preSourceCall><command name=\"pre.sh\" type=\"executable\""
                + " retryCount=\"1\" retryWait=\"30\" successRC=\"0|4\"><argument>a b</argument><argument/></command>"
                + "</preSourceCall>"
                + "<postDestinationCall><command name=\"post.sh\"/></postDestinationCall>");
        TransferRequest request = (TransferRequest) parser.parse(xml);
        ProgramCalls calls = request.transferSet().calls();
        assertEquals(new ProgramCall(CallType.EXECUTABLE, "pre.sh", List.of("a b", ""), 1, 30,
                SuccessCodes.of("0|4")), calls.preSource());
        assertEquals(ProgramCall.executable("post.sh", List.of()), calls.postDestination());
        assertNull(calls.postSource());
        assertNull(calls.preDestination());
        assertEquals(request, parser.parse(new DocumentWriter().write(request)));
    }

    @Test
    void antScriptsAndJclAreRefusedAsNotSupported() {
        for (String type : List.of("antScript", "antscript", "jcl")) {
            Exception e = refused(() -> parser.parse(withCalls("<preSourceCall><command name=\"b.xml\" type=\""
                    + type + "\"/></preSourceCall>")), "is not supported", "element <command>");
            assertInstanceOf(UnsupportedRequestException.class, e);
        }
        assertInstanceOf(UnsupportedRequestException.class, refused(() -> parser.parse(withCalls(
                "<preSourceCall><command name=\"b\"><property name=\"p\" value=\"v\"/></command></preSourceCall>")),
                "<property>"));
    }

    @Test
    void badCallsAreMalformed() {
        refused(() -> parser.parse(withCalls("<preSourceCall><command name=\"x\" successRC=\"a\"/></preSourceCall>")),
                "element <command>", "\"a\"");
        refused(() -> parser.parse(withCalls("<preSourceCall><command name=\"x\" retryCount=\"-2\"/></preSourceCall>")),
                "retryCount");
        refused(() -> parser.parse(withCalls("<preSourceCall><command/></preSourceCall>")),
                "missing required attribute name");
        refused(() -> parser.parse(withCalls("<preSourceCall></preSourceCall>")), "missing required element <command>");
        refused(() -> parser.parse(withCalls("<postSourceCall><command name=\"x\"/></postSourceCall>"
                + "<preSourceCall><command name=\"x\"/></preSourceCall>")), "preSourceCall");
    }
}

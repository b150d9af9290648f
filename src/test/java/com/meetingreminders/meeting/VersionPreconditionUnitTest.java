package com.meetingreminders.meeting;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** If-Match on a meeting: which versions a header lets a change apply to, and which headers are none. */
class VersionPreconditionUnitTest {

    @Test
    void quotesTheVersionAsAnEntityTag() {
        assertThat(VersionPrecondition.entityTag(3)).isEqualTo("\"3\"");
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "   ", "*", " * "})
    void noHeaderOrAStarAcceptsAnyVersion(String header) {
        VersionPrecondition precondition = VersionPrecondition.ifMatch(header == null ? null : List.of(header))
                .orElseThrow();

        assertThat(precondition.acceptedTags()).isEmpty();
        assertThat(precondition.allows(0)).isTrue();
        assertThat(precondition.allows(Long.MAX_VALUE)).isTrue();
    }

    @Test
    void aListAcceptsEachOfItsVersionsAndNoOther() {
        VersionPrecondition precondition =
                VersionPrecondition.ifMatch(List.of("\"1\", \"4\",\"9\"")).orElseThrow();

        assertThat(precondition.allows(1)).isTrue();
        assertThat(precondition.allows(4)).isTrue();
        assertThat(precondition.allows(9)).isTrue();
        assertThat(precondition.allows(2)).isFalse();
    }

    @Test
    void headerLinesAreOneList() {
        VersionPrecondition precondition =
                VersionPrecondition.ifMatch(List.of("\"7\"", "\"0\"")).orElseThrow();

        assertThat(precondition.allows(0)).isTrue();
        assertThat(precondition.allows(7)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"W/\"3\"", "\"03\"", "\"3,4\"", "W/\"3\", \"4\""})
    void otherTagsDoNotMatchTheVersionBecauseTagsCompareStrongly(String header) {
        assertThat(VersionPrecondition.ifMatch(List.of(header)).orElseThrow().allows(3))
                .isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"3", "'3'", "\"3", "\"3\"x", ",,", "*, \"3\"", "\"3\" \"4\"", "w/\"3\"", "\"a\u0001\""})
    void aHeaderThatIsNotStarOrAListOfEntityTagsIsNone(String header) {
        assertThat(VersionPrecondition.ifMatch(Arrays.asList(header.split("\n"))))
                .isEmpty();
    }

    @Test
    void emptyItemsInAListAreIgnored() {
        assertThat(VersionPrecondition.ifMatch(List.of(" , \"5\" ,, "))
                        .orElseThrow()
                        .acceptedTags())
                .contains(Set.of("\"5\""));
    }
}

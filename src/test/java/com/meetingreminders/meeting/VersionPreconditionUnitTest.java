package com.meetingreminders.meeting;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** If-Match on a meeting: which versions a header lets a change apply to. */
class VersionPreconditionUnitTest {

    @Test
    void quotesTheVersionAsAnEntityTag() {
        assertThat(VersionPrecondition.entityTag(3)).isEqualTo("\"3\"");
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "   ", "*", " * "})
    void noHeaderOrAStarAcceptsAnyVersion(String header) {
        VersionPrecondition precondition = VersionPrecondition.ifMatch(header);

        assertThat(precondition.acceptedTags()).isEmpty();
        assertThat(precondition.allows(0)).isTrue();
        assertThat(precondition.allows(Long.MAX_VALUE)).isTrue();
    }

    @Test
    void aListAcceptsEachOfItsVersionsAndNoOther() {
        VersionPrecondition precondition = VersionPrecondition.ifMatch("\"1\", \"4\",\"9\"");

        assertThat(precondition.allows(1)).isTrue();
        assertThat(precondition.allows(4)).isTrue();
        assertThat(precondition.allows(9)).isTrue();
        assertThat(precondition.allows(2)).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"3", "W/\"3\"", "\"03\"", "'3'", "\"3", ",,", "\"3\"x"})
    void otherSpellingsOfTheVersionDoNotMatchItBecauseTagsCompareStrongly(String header) {
        assertThat(VersionPrecondition.ifMatch(header).allows(3)).isFalse();
    }

    @Test
    void emptyItemsInAListAreIgnored() {
        assertThat(VersionPrecondition.ifMatch(" , \"5\" ,, ").acceptedTags()).contains(java.util.Set.of("\"5\""));
    }
}

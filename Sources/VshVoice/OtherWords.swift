import Foundation
import VshCore
import VshSpoken

/// Everyday words that are not commands. A grammar search always returns some phrase of
/// its grammar, so "dog" comes out as the command "go" and "next" as "exit". The
/// recogniser therefore lets the grammar's phrases compete with these words as well
/// (`OpenGrammar`): what is heard as one of them is no command, whatever the channel,
/// because the decision is between two paths of one search over the same audio.
///
/// The words are the most likely ones of the stock English language model
/// (scripts/make-other-words writes `byLikelihood`), so they were not picked by looking at
/// any test set.
package enum OtherWords {
    /// How many of the most likely words compete. Measured on Speech Commands speakers of
    /// fold 0 (research/recognition/OTHER_WORDS.md): more words reject more speech that is
    /// no command and cost decoding time.
    package static let count = 1_000

    /// How many of the first (most likely) words compete at `OpenGrammar.commonWeight`
    /// rather than `OpenGrammar.weight`, as the first word heard, in a grammar that weighs
    /// them (`CommandGrammar.weighsCommonWords`: vsh's own commands). The words people say
    /// most are said far more often than the rest; said on their own near vsh ("up", "on",
    /// "right") they were heard as a one-word command (`stop`, `help`, `happy`) rather than
    /// as themselves, under a flat weight over a thousand words. Chosen a priori, with
    /// 300, and measured on Speech Commands speakers of fold 0
    /// (research/attention/ATTENTION.md, "Two rooms, and the words said most").
    package static let common = 100

    /// The first `count` words that are neither in `vocabulary` nor sound exactly like a
    /// word of it (a pronunciation in common: "know" for "no", "write" for "right"), nor
    /// missing from `dictionary`. `dictionary` must hold the vocabulary's and these
    /// words' pronunciations.
    package static func against(_ vocabulary: Set<String>, in dictionary: PronunciationDictionary,
                               count: Int = count) -> [String] {
        let taken = Set(vocabulary.flatMap { dictionary.entries[$0] ?? [] })
        var words: [String] = []
        for word in byLikelihood where words.count < count {
            guard !vocabulary.contains(word), let pronunciations = dictionary.entries[word],
                  !pronunciations.contains(where: taken.contains) else { continue }
            words.append(word)
        }
        return words
    }

    /// The words of `vocabulary` that are no whole phrase on their own (`isPhrase`): a
    /// slot's value ("five" of `play 5`) or a carrier ("play"). Without them among the
    /// words that compete, a lone "five" had no reading but a command, and the search put
    /// "play" in where nothing was said (issue 35). A word that is a phrase by itself (a
    /// one-word command, an answer, a one-word wake phrase) is not one of them. Sorted.
    package static func lone(in vocabulary: Set<String>, isPhrase: ([String]) -> Bool) -> [String] {
        vocabulary.filter { !isPhrase([$0]) }.sorted()
    }

    /// Every word `against` may choose from, and the grammar's ballast: what the
    /// dictionary has to load.
    package static var candidates: Set<String> { Set(byLikelihood + [OpenGrammar.ballast]) }
}

/// A command grammar opened to speech that is no command: its phrases, or one or two of
/// the `OtherWords`, each weighted down so that a command wins unless other words fit the
/// audio clearly better. Two, because "good morning everyone" against a single word was
/// heard as the command "code one"; the second weighted like the first, so that one-word
/// commands meet the same competition as with one (a free second word cost 6 points of
/// right words). vsh's own commands weigh the likeliest words more as the first word
/// (`OtherWords.common`, `CommandGrammar.weighsCommonWords`).
package enum OpenGrammar {
    /// The public rule of the opened grammar.
    package static let rule = "vsh_utterance"

    /// The weight of each other word against a phrase of the grammar (JSGF weights;
    /// PocketSphinx scales them far less than their face value suggests). Chosen on
    /// Speech Commands speakers of fold 0 (research/recognition/OTHER_WORDS.md).
    package static let weight = "1e-24"

    /// The weight of each of the `OtherWords.common` most likely words as the first word
    /// heard: a billion times more than the rest, which is less than it says (PocketSphinx
    /// scales JSGF weights down). Chosen on Speech Commands speakers of fold 0 from 1e-18,
    /// 1e-15 and 1e-12: the most false runs of lone words removed while the commands said
    /// to vsh lost at most a point (research/attention/ATTENTION.md, "Two rooms, and the
    /// words said most").
    package static let commonWeight = "1e-15"

    /// The weight of each of the grammar's words that is no phrase alone (`OtherWords.lone`:
    /// "five", "code", "quality") heard alone, as no command. Such a word is said
    /// near vsh far more often than a rare everyday word, so it weighs what the likeliest
    /// ones about do, not the rest's `weight`: at 1e-24 a real "four" or "one" said alone
    /// was heard as `code one` or `count one`, the carrier put in where nothing was said.
    /// Chosen on the speakers of fold 0 from 1e-24, 1e-16, 1e-12 and 1e-6, with the weight
    /// wherever a lone word was heard: the most false runs removed while the commands said
    /// to vsh lost at most 1% (at 1e-12 a real "stop" was heard as "song" and four "alexa"s
    /// were lost, at 1e-6 six "stop"s, "show" or "start oh"). It holds for a lone word alone
    /// only (`jsgf`): beside another it let "quality five" take a person's `quality high`
    /// (research/recognition/LONE_WORDS.md, "The weight, measured").
    package static let loneWeight = "1e-16"

    /// A word no one says in a command, given weight 1 beside the other words so that
    /// theirs is not normalised away: JSGF divides the weights of a rule's alternatives by
    /// their sum, and a weight on a rule reference has no effect in PocketSphinx. Were it
    /// ever heard, it is an other word like the rest: no command.
    package static let ballast = "antidisestablishmentarianism"

    /// `jsgf` with its public rules made private and one new public rule: any of them, or
    /// one of `otherWords` and optionally a second, each weighted. `loneWords` (words of
    /// the grammar that are no phrase alone, `OtherWords.lone`) join the other words at
    /// their `weight`, and, as the whole utterance, weigh `loneWeight` (the recogniser's
    /// default: `OpenGrammar.loneWeight`): said alone, such a word is heard as itself, no
    /// command; said with the rest of its phrase, the phrase wins, as it carries no weight
    /// at all. Only alone: two of them at `loneWeight` ("quality five") took the place of
    /// a person's `quality high` after `train`. The first `common` of `otherWords` (the
    /// most likely) weigh `commonWeight` as the first word and `weight` as the second: a
    /// common word said on its own is heard as itself, and two common words ("but a",
    /// "what in") do not take a command's place (with both weighted, Speech Commands' "up"
    /// and "on" were heard so). PocketSphinx decodes a grammar's first public rule only,
    /// so the grammar's own rules are all kept.
    package static func jsgf(_ jsgf: String, otherWords: [String], weight: String = weight,
                             loneWords: [String] = [], loneWeight: String = weight,
                             common: Int = 0, commonWeight: String = commonWeight) -> String {
        var publicRules: [String] = []
        var text = ""
        var rest = Substring(jsgf)
        while let found = rest.range(of: "public") {
            text += rest[..<found.lowerBound]
            var after = rest[found.upperBound...]
            let spaces = after.prefix { $0 == " " || $0 == "\t" || $0 == "\n" }
            after = after.dropFirst(spaces.count)
            if !spaces.isEmpty, after.first == "<", let close = after.firstIndex(of: ">") {
                publicRules.append(String(after[after.index(after: after.startIndex)..<close]))
                rest = after
            } else {
                text += rest[found]
                rest = rest[found.upperBound...]
            }
        }
        text += rest
        guard !publicRules.isEmpty, !otherWords.isEmpty else { return jsgf }
        if !text.hasSuffix("\n") { text += "\n" }
        let alone = !loneWords.isEmpty && loneWeight != weight
        text += "public <\(rule)> = " + (publicRules.map { "<\($0)>" } + ["<vsh_other>"] + (alone ? ["<vsh_lone>"] : []))
            .joined(separator: " | ") + ";\n"
        func words(common: Int) -> String {
            let weighted = otherWords.enumerated().map { "/\($0.offset < common ? commonWeight : weight)/ \($0.element)" }
            return "/1/ \(ballast) | " + (weighted + loneWords.map { "/\(weight)/ \($0)" }).joined(separator: " | ")
        }
        text += "<vsh_other> = (\(words(common: common))) [<vsh_other_more>];\n"
        text += "<vsh_other_more> = \(words(common: 0));\n"
        if alone {
            text += "<vsh_lone> = /1/ \(ballast) | " + loneWords.map { "/\(loneWeight)/ \($0)" }.joined(separator: " | ") + ";\n"
        }
        return text
    }
}

import Foundation

/// Whether the audio has the syllables the words heard claim. Where a stop or a fricative
/// parts two vowels ("co-de oh", "hap-py", "re-cord", "mar-vin"), the mouth closes or
/// narrows between them and the voice's band (300 Hz to 2.5 kHz, where a vowel is loud)
/// falls by 15 to 40 dB and rises again. One syllable heard as two ("go" as `code oh`, "up"
/// as `happy`, "right" as `record`, "eight" as `play eighteen`) has no such dip: the
/// search fitted the first word's phones into the onset of the one vowel there is.
package enum Syllables {
    static let vowels: Set<Substring> = ["AA", "AE", "AH", "AO", "AW", "AY", "EH", "ER", "EY", "IH", "IY", "OW", "OY", "UH", "UW"]
    /// The consonants that close or narrow the mouth: stops, fricatives and affricates.
    /// Nasals, liquids and glides part two vowels with little or no dip ("play one").
    static let parting: Set<Substring> = ["P", "B", "T", "D", "K", "G", "F", "V", "TH", "DH", "S", "Z", "SH", "ZH", "CH", "JH"]
    /// Peaks further than this under the loudest frame are no vowel (a release, a breath).
    static let peakWithin = 25.0

    /// How many pairs of vowels in a row the words' phones (each word's, in order) have with
    /// a parting consonant between them, within a word or across two. A word's last "AH N",
    /// "AH M" or "AH L" counts as no vowel: it is often said as the consonant alone ("sev'n").
    package static func partings(_ words: [[Substring]]) -> Int {
        var count = 0, parted: Bool?  // nil before the first vowel
        for phones in words {
            for (i, phone) in phones.enumerated() {
                let syllabic = i == phones.count - 2 && phone == "AH" && ["N", "M", "L"].contains(phones[i + 1])
                if vowels.contains(phone) && !syllabic {
                    if parted == true { count += 1 }
                    parted = false
                } else if parting.contains(phone), parted != nil {
                    parted = true
                }
            }
        }
        return count
    }

    /// The deepest dip of the voice's band over frames `from...to` of `spectrum`, in dB:
    /// the most any frame lies under the loudest voiced frames both before and after it,
    /// where both are within `peakWithin` of the loudest. The room's power in the band is
    /// taken off (a steady noise does not fill the dip), down to a tenth of it. 0 without a
    /// dip. Only a voiced frame (`Voicing.periodic`) is a peak: each syllable has a vowel,
    /// and a vowel is voiced. The release of a stop or a fricative after the one vowel there
    /// is lies within `peakWithin` of it in the voice's band and has no voice: "left" or
    /// "six" heard as `record` dipped 20 to 40 dB before it.
    package static func dip(in spectrum: Spectrum, from: Int, to: Int) -> Double {
        let first = max(0, from), last = min(spectrum.frames.count - 1, to)
        guard first < last else { return 0 }
        let room = spectrum.room.voice
        let level = spectrum.frames[first...last].map { 10 * log10(max(0, $0.voice - room) + room / 10 + 1) }
        let loud = (level.max() ?? 0) - peakWithin
        // A frame under `loud` is no peak whether voiced or not: only those over it are judged.
        let voiced = Voicing.periodic(in: spectrum, from: first, to: last) { level[$0 - first] >= loud }
        let peak = level.indices.map { voiced[$0] ? level[$0] : -.infinity }
        var after = [Double](repeating: -.infinity, count: level.count)
        for i in level.indices.reversed().dropFirst() { after[i] = max(after[i + 1], peak[i + 1]) }
        var before = -Double.infinity, deepest = 0.0
        for i in level.indices {
            let peaks = min(before, after[i])
            if peaks >= loud { deepest = max(deepest, peaks - level[i]) }
            before = max(before, peak[i])
        }
        return deepest
    }
}

/*
 * Speech-to-text is billed on the length of the audio, as the established gateway bills it (which asks ffprobe): a
 * minute of audio counts as 1,000 prompt tokens, whole seconds rounded up. The length is read from the file's own
 * headers (WAV, MP3, M4A/MP4, OGG/Opus, FLAC, WebM...) by music-metadata, loaded on the first upload.
 */
/** Prompt tokens per minute of audio. */
const TOKENS_PER_MINUTE = 1000;
/** Seconds of audio in an uploaded file, or null when its format does not tell. */
export async function audioSeconds(file) {
    try {
        const { parseBuffer } = await import('music-metadata');
        const bytes = new Uint8Array(await file.arrayBuffer());
        const { format } = await parseBuffer(bytes, { mimeType: file.type || undefined, size: bytes.length }, { duration: true, skipCovers: true });
        const seconds = format.duration;
        return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
    }
    catch {
        return null;
    }
}
/** The prompt tokens a transcription of this much audio is billed as. */
export function audioPromptTokens(seconds) {
    return Math.round((Math.ceil(seconds) / 60) * TOKENS_PER_MINUTE);
}
//# sourceMappingURL=audio-duration.js.map
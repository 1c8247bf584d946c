//! The bounds every provider's stream assembler holds a streamed response
//! to, and the words of the error when a stream goes past one: one set for
//! all providers, so a hostile or broken stream is refused at the same
//! place whichever API it imitates, and memory stays bounded (what is past
//! a bound is refused, never buffered).
//!
//! Per call, each assembler also keeps its own limit on one call's
//! arguments (the OpenAI readers 16 MiB, the Anthropic reader the session's
//! `max_argument_bytes`); the bounds here are for the response as a whole.

/// The most tool calls one streamed response may open (a model asks for a
/// handful; parallel calls in the hundreds are already a broken stream).
pub const MAX_CALLS: usize = 1024;

/// The most bytes of tool-call arguments (and ids and names) one streamed
/// response may add up to, over all its calls: 32 MiB, the most the HTTP
/// transport reads as one answer.
pub const MAX_ARGUMENT_BYTES: usize = 32 << 20;

/// The most bytes of text and thinking an assembler keeps for one streamed
/// response, over all its blocks (one block may hold all of it): 16 MiB.
pub const MAX_TEXT_BYTES: usize = 16 << 20;

/// The most content parts one streamed response may open: content blocks
/// of any type (Anthropic) or choices (Chat Completions), each kept while
/// the stream runs.
pub const MAX_PARTS: usize = 4096;

/// The first error an assembler refused its stream with. Once a push is
/// refused, the stream is: every later push, and the end, give that error
/// again, since what is left of a refused stream is not what the model
/// sent. Each assembler keeps one and passes every push through it.
#[derive(Clone, Debug)]
pub struct Refusal<E>(Option<E>);

impl<E> Default for Refusal<E> {
    fn default() -> Self {
        Refusal(None)
    }
}

impl<E: Clone> Refusal<E> {
    /// `Err` with the refusal, once there is one.
    pub fn check(&self) -> Result<(), E> {
        match &self.0 {
            Some(error) => Err(error.clone()),
            None => Ok(()),
        }
    }

    /// `pushed` as it is, keeping its error (the first) as the refusal.
    pub fn keep<T>(&mut self, pushed: Result<T, E>) -> Result<T, E> {
        if let (Err(error), None) = (&pushed, &self.0) {
            self.0 = Some(error.clone());
        }
        pushed
    }

    /// At the end of the stream: `Err` with the refusal, if any.
    pub fn finish(self) -> Result<(), E> {
        self.0.map_or(Ok(()), Err)
    }
}

/// The message when a response opens call number [`MAX_CALLS`] + 1:
/// `more than 1024 calls in one response; the stream is refused`.
pub fn too_many_calls() -> String {
    format!("more than {MAX_CALLS} calls in one response; the stream is refused")
}

/// The message when the arguments of a response's calls add up to more
/// than [`MAX_ARGUMENT_BYTES`].
pub fn too_much_arguments() -> String {
    format!(
        "the arguments of the response's calls add up to more than {MAX_ARGUMENT_BYTES} bytes; \
         the stream is refused"
    )
}

/// The message when a response's text and thinking add up to more than
/// [`MAX_TEXT_BYTES`].
pub fn too_much_text() -> String {
    format!(
        "the response's text and thinking add up to more than {MAX_TEXT_BYTES} bytes; the \
         stream is refused"
    )
}

/// The message when a response opens part number [`MAX_PARTS`] + 1 (`what`
/// names the part: `content blocks`, `choices`).
pub fn too_many_parts(what: &str) -> String {
    format!("more than {MAX_PARTS} {what} in one response; the stream is refused")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_is_the_first_error_and_stays() {
        let mut refusal = Refusal::<String>::default();
        assert_eq!(refusal.keep(Ok::<_, String>(1)), Ok(1));
        assert_eq!(refusal.check(), Ok(()));
        assert_eq!(
            refusal.keep(Err::<u8, _>("first".to_owned())),
            Err("first".to_owned())
        );
        assert_eq!(
            refusal.keep(Err::<u8, _>("second".to_owned())),
            Err("second".to_owned())
        );
        assert_eq!(refusal.check(), Err("first".to_owned()));
        assert_eq!(refusal.finish(), Err("first".to_owned()));
    }
}

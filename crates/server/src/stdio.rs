//! The stdio transport: newline-delimited JSON-RPC read with a bounded line buffer, every line
//! checked by [`crate::jsonrpc::inspect`] before the MCP service sees it. Unlike the SDK's own
//! reader, a line that cannot be read (invalid JSON or UTF-8, over 16 MiB) is answered with a
//! JSON-RPC error and the next line is served.
//!
//! A plain `tools/call` (see [`crate::direct`]) is answered by the transport itself through the
//! server's direct handle, once the session is initialized and while no request handed to the
//! SDK is still being served, so it never overtakes one; everything else goes through the SDK.

use std::collections::HashSet;
use std::future::Future;
use std::io::IoSlice;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

use crate::direct::{Direct, Outcome};
use crate::jsonrpc::{self, MAX_MESSAGE_BYTES, Verdict};
use crate::memo::{Kept, Memo};

/// JSON-RPC: the server failed while answering.
const INTERNAL_ERROR: i64 = -32603;

/// A line-delimited JSON-RPC transport over any reader and writer (stdin and stdout in `serve`).
pub struct LineTransport<R, W> {
    read: BufReader<R>,
    line: Vec<u8>,
    /// Dropping the rest of an oversized line (kept here: `receive` may be cancelled mid-line).
    discarding: bool,
    eof: bool,
    write: Arc<Mutex<W>>,
    /// Error answers being written; awaited before the transport reports its end.
    answering: Vec<tokio::task::JoinHandle<()>>,
    /// The server's memo, whose placeholders this transport splices into what it sends.
    memo: Option<Arc<Memo>>,
    /// Ids (as JSON) of the requests handed to the service and not yet answered. A plain call
    /// is answered by the transport itself only while this is empty, so it never overtakes a
    /// request sent before it.
    in_flight: Arc<std::sync::Mutex<HashSet<String>>>,
    /// The server's handle for plain `tools/call` requests.
    direct: Option<Direct>,
    /// Whether an `initialize` was answered with a protocol version of the initialize era: the
    /// session whose result shape the direct path writes.
    initialized: bool,
}

enum Read {
    Line,
    Oversized,
    Eof,
}

impl<R, W> LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    /// A transport reading `read` and writing `write`.
    pub fn new(read: R, write: W) -> Self {
        Self {
            read: BufReader::new(read),
            line: Vec::new(),
            discarding: false,
            eof: false,
            write: Arc::new(Mutex::new(write)),
            answering: Vec::new(),
            memo: None,
            in_flight: Arc::default(),
            direct: None,
            initialized: false,
        }
    }

    /// Splices the kept answers of `memo` (the one given to the server with
    /// [`crate::mcp::TabletopServer::with_memo`]) into the messages sent.
    pub fn with_memo(mut self, memo: Arc<Memo>) -> Self {
        self.memo = Some(memo);
        self
    }

    /// Answers plain `tools/call` requests through `direct` (the handle of the server this
    /// transport serves, [`crate::mcp::TabletopServer::direct`]) instead of the SDK.
    pub fn with_direct(mut self, direct: Direct) -> Self {
        self.direct = Some(direct);
        self
    }

    /// Reads one line into `self.line` (cancellation-safe: a partial line stays buffered).
    async fn read_line(&mut self) -> std::io::Result<Read> {
        loop {
            let (consumed, done) = {
                let available = self.read.fill_buf().await?;
                if available.is_empty() {
                    return Ok(Read::Eof);
                }
                let newline = available.iter().position(|b| *b == b'\n');
                let take = newline.map_or(available.len(), |i| i + 1);
                if self.discarding {
                    if newline.is_some() {
                        self.discarding = false;
                    }
                    (take, None)
                } else if self.line.len().saturating_add(take) > MAX_MESSAGE_BYTES + 2 {
                    self.line.clear();
                    self.discarding = newline.is_none();
                    (take, Some(Read::Oversized))
                } else {
                    self.line.extend_from_slice(&available[..take]);
                    (take, newline.map(|_| Read::Line))
                }
            };
            self.read.consume(consumed);
            if let Some(done) = done {
                return Ok(done);
            }
        }
    }

    /// Writes an error response without blocking `receive` (which may be cancelled).
    fn answer(&mut self, response: Value) {
        tracing::debug!(%response, "answering a message the service cannot take");
        match serde_json::to_vec(&response) {
            Ok(bytes) => self.answer_bytes(bytes),
            Err(e) => tracing::debug!("could not answer: {e}"),
        }
    }

    /// Writes a complete message without blocking `receive` (which may be cancelled).
    fn answer_bytes(&mut self, bytes: Vec<u8>) {
        self.answer_message(Message::Bytes(bytes));
    }

    /// Writes a complete message without blocking `receive` (which may be cancelled): at once
    /// when the writer is free and takes it whole (a pipe with room, the usual case), else by a
    /// task that holds the writer until the message is out, so messages never interleave.
    fn answer_message(&mut self, message: Message) {
        self.answering.retain(|h| !h.is_finished());
        if self.answering.is_empty()
            && let Ok(writer) = self.write.clone().try_lock_owned()
        {
            if let Some(rest) = write_at_once(writer, message) {
                self.answering.push(tokio::spawn(rest));
            }
            return;
        }
        let write = self.write.clone();
        self.answering.push(tokio::spawn(async move {
            let written = match message {
                Message::Bytes(bytes) => write_bytes(&write, bytes).await,
                Message::Kept(head, kept) => {
                    write_parts(&write, &crate::direct::kept_parts(&head, &kept)).await
                }
            };
            if let Err(e) = written {
                tracing::debug!("could not answer: {e}");
            }
        }));
    }

    /// The complete response to `body` when it is a plain `tools/call` the transport answers
    /// itself: the session is initialized, nothing handed to the SDK is still being served, and
    /// the tool is not `discover_tools` (whose list-changed announcement goes through the SDK).
    fn direct_answer(&self, body: &[u8]) -> Option<Message> {
        let direct = self.direct.as_ref().filter(|_| self.initialized)?;
        if !self.in_flight.lock().ok()?.is_empty() {
            return None;
        }
        let crate::direct::PlainCall {
            id,
            name,
            arguments,
        } = crate::direct::read(body)?;
        if name == crate::catalog::DISCOVER_TOOLS.name {
            return None;
        }
        tracing::debug!(%id, tool = %name, "direct call");
        let mut out = Vec::with_capacity(2048);
        out.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":");
        out.extend_from_slice(id.as_bytes());
        out.extend_from_slice(b",\"result\":");
        // A tool that panics (none should) must not take the transport down with it: the call
        // is answered with an internal error, as a request the SDK path could not complete.
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            direct(&name, arguments, &mut out)
        }));
        match ran {
            Ok(Outcome::Written) => {
                out.push(b'}');
                Some(Message::Bytes(out))
            }
            Ok(Outcome::Kept(kept)) => Some(Message::Kept(out, kept)),
            Ok(Outcome::Declined) => None,
            Err(_) => {
                tracing::error!(%id, tool = %name, "the call panicked");
                let id: Value = serde_json::from_str(&id).unwrap_or(Value::Null);
                let answer = jsonrpc::error_response(
                    id,
                    INTERNAL_ERROR,
                    format!(
                        "Internal error: {name} failed unexpectedly; the server goes on serving, and the server's log says more"
                    ),
                );
                serde_json::to_vec(&answer).ok().map(Message::Bytes)
            }
        }
    }

    /// Notes a message handed to the service: a request is in flight until its answer is sent,
    /// or until the client cancels it.
    fn track(&self, msg: &RxJsonRpcMessage<RoleServer>) {
        use rmcp::model::{ClientNotification, JsonRpcMessage};
        let Ok(mut in_flight) = self.in_flight.lock() else {
            return;
        };
        match msg {
            JsonRpcMessage::Request(r) => {
                if let Ok(id) = serde_json::to_string(&r.id) {
                    in_flight.insert(id);
                }
            }
            JsonRpcMessage::Notification(n) => {
                if let ClientNotification::CancelledNotification(c) = &n.notification
                    && let Ok(id) = serde_json::to_string(&c.params.request_id)
                {
                    in_flight.remove(&id);
                }
            }
            _ => {}
        }
    }

    /// Waits for the error answers still being written.
    async fn answered(&mut self) {
        for h in std::mem::take(&mut self.answering) {
            let _ = h.await;
        }
    }
}

/// A response the transport writes itself.
enum Message {
    /// The message, without its newline.
    Bytes(Vec<u8>),
    /// The response up to `"result":`, then a kept answer ([`crate::direct::kept_parts`]).
    Kept(Vec<u8>, Arc<Kept>),
}

/// Writes `message` through `writer` without waiting: what the writer does not take at once (a
/// full pipe) is left to the returned future, which keeps the writer until it is all written.
fn write_at_once<W: AsyncWrite + Unpin + Send + 'static>(
    mut writer: tokio::sync::OwnedMutexGuard<W>,
    mut message: Message,
) -> Option<impl Future<Output = ()> + Send + 'static> {
    use std::pin::Pin;
    use std::task::{Context, Poll, Waker};
    let mut cx = Context::from_waker(Waker::noop());
    if let Message::Bytes(bytes) = &mut message {
        bytes.push(b'\n');
    }
    let parts: Vec<&[u8]> = match &message {
        Message::Bytes(line) => vec![&line[..]],
        Message::Kept(head, kept) => crate::direct::kept_parts(head, kept),
    };
    let mut slices: Vec<IoSlice<'_>> = parts.iter().map(|p| IoSlice::new(p)).collect();
    let mut rest = &mut slices[..];
    IoSlice::advance_slices(&mut rest, 0);
    let mut written = 0;
    while !rest.is_empty() {
        let w = Pin::new(&mut *writer);
        let n = if w.is_write_vectored() {
            w.poll_write_vectored(&mut cx, rest)
        } else {
            w.poll_write(&mut cx, &rest[0])
        };
        match n {
            Poll::Ready(Ok(0)) | Poll::Pending => break,
            Poll::Ready(Ok(n)) => {
                written += n;
                IoSlice::advance_slices(&mut rest, n);
            }
            Poll::Ready(Err(e)) => {
                tracing::debug!("could not answer: {e}");
                return None;
            }
        }
    }
    if rest.is_empty() {
        match Pin::new(&mut *writer).poll_flush(&mut cx) {
            Poll::Ready(Ok(())) => return None,
            Poll::Ready(Err(e)) => {
                tracing::debug!("could not answer: {e}");
                return None;
            }
            Poll::Pending => {}
        }
    }
    let left: Vec<u8> = parts.concat().split_off(written);
    Some(async move {
        let done = async {
            writer.write_all(&left).await?;
            writer.flush().await
        };
        if let Err(e) = done.await {
            tracing::debug!("could not answer: {e}");
        }
    })
}

/// Writes `parts` (ending with the line's newline) with vectored writes, or as one buffer where
/// the writer cannot take several.
async fn write_parts<W: AsyncWrite + Unpin>(
    write: &Mutex<W>,
    parts: &[&[u8]],
) -> std::io::Result<()> {
    let mut w = write.lock().await;
    if !w.is_write_vectored() {
        w.write_all(&parts.concat()).await?;
        return w.flush().await;
    }
    let mut slices: Vec<IoSlice<'_>> = parts.iter().map(|p| IoSlice::new(p)).collect();
    let mut rest = &mut slices[..];
    IoSlice::advance_slices(&mut rest, 0);
    while !rest.is_empty() {
        let n = w.write_vectored(rest).await?;
        if n == 0 {
            return Err(std::io::ErrorKind::WriteZero.into());
        }
        IoSlice::advance_slices(&mut rest, n);
    }
    w.flush().await
}

async fn write_bytes<W: AsyncWrite + Unpin>(
    write: &Mutex<W>,
    mut bytes: Vec<u8>,
) -> std::io::Result<()> {
    bytes.push(b'\n');
    let mut w = write.lock().await;
    w.write_all(&bytes).await?;
    w.flush().await
}

impl<R, W> Transport<RoleServer> for LineTransport<R, W>
where
    R: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        use rmcp::model::{JsonRpcMessage, ProtocolVersion, ServerResult};
        if let JsonRpcMessage::Response(r) = &item
            && let ServerResult::InitializeResult(init) = &r.result
        {
            self.initialized =
                init.protocol_version.as_str() < ProtocolVersion::V_2026_07_28.as_str();
        }
        let answered = match &item {
            JsonRpcMessage::Response(r) => serde_json::to_string(&r.id).ok(),
            JsonRpcMessage::Error(e) => serde_json::to_string(&e.id).ok(),
            _ => None,
        };
        if let (Some(id), Ok(mut in_flight)) = (answered, self.in_flight.lock()) {
            in_flight.remove(&id);
        }
        let write = self.write.clone();
        let memo = self.memo.clone();
        async move {
            let bytes = serde_json::to_vec(&item).map_err(std::io::Error::other)?;
            let bytes = match memo {
                Some(m) => m.splice(bytes),
                None => bytes,
            };
            write_bytes(&write, bytes).await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if self.eof {
                self.answered().await;
                return None;
            }
            match self.read_line().await {
                Ok(Read::Line) => {}
                Ok(Read::Oversized) => {
                    self.answer(jsonrpc::oversized());
                    continue;
                }
                Ok(Read::Eof) => {
                    // A last message without its newline is still a message.
                    self.eof = true;
                    if self.line.is_empty() || self.discarding {
                        self.answered().await;
                        return None;
                    }
                }
                Err(e) => {
                    tracing::error!("error reading stdin: {e}");
                    return None;
                }
            }
            let line = std::mem::take(&mut self.line);
            let body = line.strip_suffix(b"\n").unwrap_or(&line);
            if let Some(answer) = self.direct_answer(body) {
                self.line = line;
                self.line.clear();
                self.answer_message(answer);
                continue;
            }
            let verdict = jsonrpc::inspect(body);
            // Keep the buffer's capacity for the next line.
            self.line = line;
            self.line.clear();
            match verdict {
                Verdict::Deliver(msg) => {
                    self.track(&msg);
                    return Some(*msg);
                }
                Verdict::Answer(response) => self.answer(response),
                Verdict::Ignore => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.answered().await;
        self.write.lock().await.flush().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    /// Runs `input` through a transport whose session is initialized and whose direct handle is
    /// `direct`; returns what it delivered to the SDK and what it wrote itself.
    fn run(input: &'static [u8], direct: Direct) -> (usize, String) {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let (write, mut read) = tokio::io::duplex(1 << 16);
            let mut t = LineTransport::new(input, write).with_direct(direct);
            t.initialized = true;
            let mut delivered = 0;
            while t.receive().await.is_some() {
                delivered += 1;
            }
            drop(t);
            let mut out = String::new();
            read.read_to_string(&mut out).await.unwrap();
            (delivered, out)
        })
    }

    /// Answers a pipe cannot take at once (here one of 7 bytes) are finished by a task that keeps
    /// the writer: every answer arrives whole, in the order of the calls.
    #[test]
    fn answers_a_full_pipe_cannot_take_at_once_arrive_whole_and_in_order() {
        let direct: Direct = Arc::new(|_: &str, args: Option<&str>, out: &mut Vec<u8>| {
            let n = args.unwrap_or("0");
            out.extend_from_slice(
                format!("{{\"n\":{n},\"pad\":\"{}\"}}", "x".repeat(100)).as_bytes(),
            );
            Outcome::Written
        });
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let out = rt.block_on(async move {
            let (write, mut read) = tokio::io::duplex(7);
            let reader = tokio::spawn(async move {
                let mut out = String::new();
                read.read_to_string(&mut out).await.unwrap();
                out
            });
            let input: &'static [u8] = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"a\",\"arguments\":{\"k\":1}}}\n\
              {\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"a\",\"arguments\":{\"k\":2}}}\n\
              {\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"a\",\"arguments\":{\"k\":3}}}\n";
            let mut t = LineTransport::new(input, write).with_direct(direct);
            t.initialized = true;
            assert!(t.receive().await.is_none());
            drop(t);
            reader.await.unwrap()
        });
        let pad = "x".repeat(100);
        let want: String = (1..=3)
            .map(|n| {
                format!("{{\"jsonrpc\":\"2.0\",\"id\":{n},\"result\":{{\"n\":{{\"k\":{n}}},\"pad\":\"{pad}\"}}}}\n")
            })
            .collect();
        assert_eq!(out, want);
    }

    #[test]
    fn plain_calls_are_answered_directly_and_a_panic_is_an_internal_error() {
        let direct: Direct = Arc::new(
            |name: &str, args: Option<&str>, out: &mut Vec<u8>| match name {
                "boom" => panic!("a tool bug"),
                "bad" => Outcome::Declined,
                _ => {
                    out.extend_from_slice(
                        format!(
                            "{{\"tool\":\"{name}\",\"args\":{}}}",
                            args.unwrap_or("null")
                        )
                        .as_bytes(),
                    );
                    Outcome::Written
                }
            },
        );
        let (delivered, out) = run(
            b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"boom\"}}\n\
              {\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"a\": 1}}}\n\
              {\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"bad\"}}\n\
              {\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"discover_tools\"}}\n",
            direct,
        );
        assert_eq!(
            out,
            "{\"error\":{\"code\":-32603,\"message\":\"Internal error: boom failed unexpectedly; the server goes on serving, and the server's log says more\"},\"id\":1,\"jsonrpc\":\"2.0\"}\n\
             {\"jsonrpc\":\"2.0\",\"id\":\"b\",\"result\":{\"tool\":\"echo\",\"args\":{\"a\": 1}}}\n"
        );
        // `bad` (arguments the handle cannot read) and discover_tools go to the SDK.
        assert_eq!(delivered, 2);
    }
}

# Tabletop in a container: a multi-stage build (the Rust toolchain stays in the first stage).
#
#   docker build -t tabletop .
#   # install the SRD once from a mounted 5e-database copy (a checkout, its src/2014/en, or a
#   # folder holding 2014/) into the data volume:
#   docker run --rm -v tabletop-data:/data -v /path/to/5e-database:/srd:ro tabletop srd install --from /srd
#   # serve MCP over stdio (the client starts this command):
#   docker run --rm -i -v tabletop-data:/data tabletop serve --campaign my-campaign
#
# The SRD data is never part of the image: it is read at run time from the data volume.

FROM rust:1.95-slim-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY crates ./crates
RUN cargo install --locked --path crates/server --root /out

FROM debian:bookworm-slim
RUN useradd --create-home --uid 10001 tabletop \
    && mkdir -p /data && chown tabletop /data
COPY --from=build /out/bin/tabletop /usr/local/bin/tabletop
COPY LICENSE-MIT LICENSE-APACHE /usr/share/doc/tabletop/
USER tabletop
ENV TABLETOP_DATA_DIR=/data
VOLUME ["/data"]
ENTRYPOINT ["tabletop"]
CMD ["serve"]

# syntax=docker/dockerfile:1
# Build: docker build -t gamebot .
# Run:   docker run -p 8080:8080 gamebot
#
# The toolchain is the release one named by go.mod's toolchain line (and
# used by CI): go1.27.3, with the net/http fixes that go1.26.8 lacks
# (govulncheck: GO-2026-6603/6611/6612/6613/6617).
FROM golang:1.27.3 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/gamebot ./cmd/gamebot

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/gamebot /gamebot
USER nonroot:nonroot
ENV HOST=0.0.0.0 PORT=8080
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s CMD ["/gamebot", "healthcheck"]
ENTRYPOINT ["/gamebot"]

// One connection's byte stream for the server: the socket itself, or TLS
// over it through OpenSSL (`ttldb serve --tlsMode`), with the deadlines of
// socket_io.h either way.
//
// TLS is mongod's model (net.tls.*): a certificate and key file in PEM
// (tlsCertificateKeyFile); with tlsCAFile, clients must present a
// certificate signed by that CA unless
// tlsAllowConnectionsWithoutCertificates; TLS 1.2 at least (mongod's
// default, TLS 1.0 and 1.1 disabled). Under preferTLS (and allowTLS) a
// connection whose first bytes are a TLS handshake record (0x16 0x03) is
// served over TLS, any other in the clear; under requireTLS a connection
// that does not start with a TLS handshake is closed.
#ifndef TTLDB_SERVER_TRANSPORT_H_
#define TTLDB_SERVER_TRANSPORT_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "server/socket_io.h"

typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_st SSL;

namespace ttldb {
namespace server {

enum class TlsMode { kDisabled, kAllowTls, kPreferTls, kRequireTls };

// "disabled", "allowTLS", "preferTLS", "requireTLS" (mongod's names).
absl::StatusOr<TlsMode> ParseTlsMode(absl::string_view name);

struct TlsOptions {
  TlsMode mode = TlsMode::kDisabled;
  std::string certificate_key_file;  // PEM: certificate then private key
  std::string ca_file;               // PEM: CAs that sign client certs
  bool allow_connections_without_certificates = false;
};

// The server's TLS configuration, loaded once. Thread-safe.
class TlsContext {
 public:
  // Fails with a clear message for a missing or unreadable file, a key
  // that does not match the certificate, or tlsMode without a certificate.
  static absl::StatusOr<std::unique_ptr<TlsContext>> Create(
      const TlsOptions& options);
  ~TlsContext();
  SSL_CTX* ctx() const { return ctx_; }
  TlsMode mode() const { return mode_; }

 private:
  TlsContext(SSL_CTX* ctx, TlsMode mode) : ctx_(ctx), mode_(mode) {}
  SSL_CTX* const ctx_;
  const TlsMode mode_;
};

// A client's TLS configuration, as the mongo shell's --tls options, for
// ttldb's own tools (`ttldb backup --host --tls`): the server's certificate
// must be signed by a CA of `ca_file` (empty: the system's CAs) and name the
// host connected to; TLS 1.2 at least.
struct ClientTlsOptions {
  std::string ca_file;               // --tlsCAFile
  std::string certificate_key_file;  // --tlsCertificateKeyFile (optional)
};

class ClientTlsContext {
 public:
  // Fails with a clear message for a missing or unreadable file.
  static absl::StatusOr<std::unique_ptr<ClientTlsContext>> Create(
      const ClientTlsOptions& options);
  ~ClientTlsContext();
  SSL_CTX* ctx() const { return ctx_; }

 private:
  explicit ClientTlsContext(SSL_CTX* ctx) : ctx_(ctx) {}
  SSL_CTX* const ctx_;
};

class Transport {
 public:
  explicit Transport(int fd) : fd_(fd) {}
  ~Transport();  // frees the TLS state; does not close fd
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  // Decides plain or TLS for this connection by `tls` (null: plain) and
  // its first bytes, and runs the TLS handshake. False: close it.
  bool Start(const TlsContext* tls, absl::Time deadline,
             const std::atomic<bool>& stop);

  // The client's side: the TLS handshake with the server at `host` (its
  // certificate must name it). Fails with Unavailable, saying why (the
  // certificate's verification error, or OpenSSL's).
  absl::Status StartClient(const ClientTlsContext& tls, absl::string_view host,
                           absl::Time deadline);

  bool secure() const { return ssl_ != nullptr; }
  // As socket_io.h's, through TLS when secure.
  IoResult WaitReadable(const std::atomic<bool>& stop);
  IoResult ReadFull(uint8_t* buf, size_t size, absl::Time deadline,
                    const std::atomic<bool>* stop = nullptr);
  IoResult WriteAll(const char* data, size_t size, absl::Time deadline);

 private:
  const int fd_;
  SSL* ssl_ = nullptr;
};

}  // namespace server
}  // namespace ttldb

#endif  // TTLDB_SERVER_TRANSPORT_H_

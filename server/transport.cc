#include "server/transport.h"

#include <fcntl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "base/status.h"

namespace ttldb {
namespace server {
namespace {

std::string OpenSslError() {
  unsigned long e = ERR_get_error();
  ERR_clear_error();
  if (e == 0) return "unknown OpenSSL error";
  char buf[256];
  ERR_error_string_n(e, buf, sizeof buf);
  return buf;
}

// Runs one OpenSSL call that may want to read or write, polling the
// socket until `deadline`. `call` returns the SSL_* result.
template <typename F>
IoResult Retry(SSL* ssl, int fd, absl::Time deadline,
               const std::atomic<bool>* stop, F call, int* result) {
  for (;;) {
    if (stop != nullptr && stop->load()) return IoResult::kStopped;
    ERR_clear_error();
    int n = call();
    if (n > 0) {
      *result = n;
      return IoResult::kOk;
    }
    int err = SSL_get_error(ssl, n);
    IoResult r;
    if (err == SSL_ERROR_WANT_READ) {
      r = WaitFor(fd, POLLIN, deadline, stop);
    } else if (err == SSL_ERROR_WANT_WRITE) {
      r = WaitFor(fd, POLLOUT, deadline, stop);
    } else {
      ERR_clear_error();
      return IoResult::kClosed;  // close_notify, reset, or a TLS error
    }
    if (r != IoResult::kOk) return r;
  }
}

}  // namespace

absl::StatusOr<TlsMode> ParseTlsMode(absl::string_view name) {
  if (name == "disabled") return TlsMode::kDisabled;
  if (name == "allowTLS") return TlsMode::kAllowTls;
  if (name == "preferTLS") return TlsMode::kPreferTls;
  if (name == "requireTLS") return TlsMode::kRequireTls;
  return absl::InvalidArgumentError(absl::StrCat(
      "--tlsMode must be disabled, allowTLS, preferTLS or requireTLS, not '",
      name, "'"));
}

absl::StatusOr<std::unique_ptr<TlsContext>> TlsContext::Create(
    const TlsOptions& options) {
  if (options.mode == TlsMode::kDisabled) {
    return absl::InvalidArgumentError("TLS is disabled");
  }
  if (options.certificate_key_file.empty()) {
    return absl::InvalidArgumentError(
        "need tlsCertificateKeyFile when tlsMode is not disabled");
  }
  SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
  if (ctx == nullptr) return absl::InternalError(OpenSslError());
  std::unique_ptr<TlsContext> out(new TlsContext(ctx, options.mode));
  // TLS 1.2 and later: mongod disables 1.0 and 1.1 by default.
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  SSL_CTX_set_mode(
      ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  const char* pem = options.certificate_key_file.c_str();
  if (SSL_CTX_use_certificate_chain_file(ctx, pem) != 1 ||
      SSL_CTX_use_PrivateKey_file(ctx, pem, SSL_FILETYPE_PEM) != 1 ||
      SSL_CTX_check_private_key(ctx) != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot use tlsCertificateKeyFile ", pem, ": ", OpenSslError()));
  }
  if (!options.ca_file.empty()) {
    const char* ca = options.ca_file.c_str();
    if (SSL_CTX_load_verify_locations(ctx, ca, nullptr) != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot use tlsCAFile ", ca, ": ", OpenSslError()));
    }
    SSL_CTX_set_client_CA_list(ctx, SSL_load_client_CA_file(ca));
    SSL_CTX_set_verify(ctx,
                       options.allow_connections_without_certificates
                           ? SSL_VERIFY_PEER
                           : SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT,
                       nullptr);
  } else {
    SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);
  }
  return out;
}

TlsContext::~TlsContext() { SSL_CTX_free(ctx_); }

absl::StatusOr<std::unique_ptr<ClientTlsContext>> ClientTlsContext::Create(
    const ClientTlsOptions& options) {
  SSL_CTX* ctx = SSL_CTX_new(TLS_client_method());
  if (ctx == nullptr) return absl::InternalError(OpenSslError());
  std::unique_ptr<ClientTlsContext> out(new ClientTlsContext(ctx));
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  SSL_CTX_set_mode(
      ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  if (options.ca_file.empty()) {
    if (SSL_CTX_set_default_verify_paths(ctx) != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot load the system's certificate authorities: ",
                       OpenSslError()));
    }
  } else if (SSL_CTX_load_verify_locations(ctx, options.ca_file.c_str(),
                                           nullptr) != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot use --tlsCAFile ", options.ca_file, ": ", OpenSslError()));
  }
  if (!options.certificate_key_file.empty()) {
    const char* pem = options.certificate_key_file.c_str();
    if (SSL_CTX_use_certificate_chain_file(ctx, pem) != 1 ||
        SSL_CTX_use_PrivateKey_file(ctx, pem, SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_check_private_key(ctx) != 1) {
      return absl::InvalidArgumentError(absl::StrCat(
          "cannot use --tlsCertificateKeyFile ", pem, ": ", OpenSslError()));
    }
  }
  SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
  return out;
}

ClientTlsContext::~ClientTlsContext() { SSL_CTX_free(ctx_); }

absl::Status Transport::StartClient(const ClientTlsContext& tls,
                                    absl::string_view host,
                                    absl::Time deadline) {
  int flags = fcntl(fd_, F_GETFL, 0);
  if (flags < 0 || fcntl(fd_, F_SETFL, flags | O_NONBLOCK) != 0) {
    return absl::UnavailableError("cannot make the socket non-blocking");
  }
  ssl_ = SSL_new(tls.ctx());
  if (ssl_ == nullptr || SSL_set_fd(ssl_, fd_) != 1) {
    return absl::InternalError(OpenSslError());
  }
  const std::string name(host);
  // The certificate must name the host: an IP address as an IP SAN, a name
  // as a DNS name (sent as SNI too), as the drivers check it.
  X509_VERIFY_PARAM* param = SSL_get0_param(ssl_);
  if (X509_VERIFY_PARAM_set1_ip_asc(param, name.c_str()) != 1) {
    SSL_set_tlsext_host_name(ssl_, name.c_str());
    if (SSL_set1_host(ssl_, name.c_str()) != 1) {
      return absl::InternalError(OpenSslError());
    }
  }
  int result = 0;
  ERR_clear_error();
  IoResult r = Retry(
      ssl_, fd_, deadline, nullptr, [&] { return SSL_connect(ssl_); }, &result);
  if (r == IoResult::kOk) return absl::OkStatus();
  if (r == IoResult::kTimeout) {
    return absl::DeadlineExceededError(
        absl::StrCat("timed out in the TLS handshake with ", name));
  }
  const long verify = SSL_get_verify_result(ssl_);
  if (verify != X509_V_OK) {
    return absl::UnavailableError(absl::StrCat(
        "the TLS certificate of ", name,
        " is not trusted: ", X509_verify_cert_error_string(verify)));
  }
  return absl::UnavailableError(
      absl::StrCat("the TLS handshake with ", name, " failed"));
}

Transport::~Transport() {
  if (ssl_ != nullptr) {
    SSL_shutdown(ssl_);  // best effort: the socket is non-blocking
    SSL_free(ssl_);
  }
}

bool Transport::Start(const TlsContext* tls, absl::Time deadline,
                      const std::atomic<bool>& stop) {
  if (tls == nullptr) return true;
  // A TLS ClientHello starts with a handshake record: 0x16, then the
  // record version's major byte 0x03. A MongoDB message starts with its
  // length (little-endian), which would have to be 0x....0316: not a
  // message any client sends first.
  uint8_t head[2];
  for (;;) {
    IoResult r = WaitFor(fd_, POLLIN, deadline, &stop);
    if (r != IoResult::kOk) return false;
    ssize_t n = recv(fd_, head, sizeof head, MSG_PEEK | MSG_DONTWAIT);
    if (n == 0) return false;
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) continue;
      return false;
    }
    if (n == 1 && head[0] == 0x16) {
      // Wait for the second byte (it follows at once in practice).
      poll(nullptr, 0, 1);
      if (absl::Now() >= deadline) return false;
      continue;
    }
    break;
  }
  const bool hello_tls = head[0] == 0x16 && head[1] == 0x03;
  if (!hello_tls) return tls->mode() != TlsMode::kRequireTls;
  int flags = fcntl(fd_, F_GETFL, 0);
  if (flags < 0 || fcntl(fd_, F_SETFL, flags | O_NONBLOCK) != 0) return false;
  ssl_ = SSL_new(tls->ctx());
  if (ssl_ == nullptr || SSL_set_fd(ssl_, fd_) != 1) return false;
  int result = 0;
  return Retry(
             ssl_, fd_, deadline, &stop, [&] { return SSL_accept(ssl_); },
             &result) == IoResult::kOk;
}

IoResult Transport::WaitReadable(const std::atomic<bool>& stop) {
  if (ssl_ != nullptr && SSL_pending(ssl_) > 0) return IoResult::kOk;
  return server::WaitReadable(fd_, stop);
}

IoResult Transport::ReadFull(uint8_t* buf, size_t size, absl::Time deadline,
                             const std::atomic<bool>* stop) {
  if (ssl_ == nullptr) return server::ReadFull(fd_, buf, size, deadline, stop);
  size_t got = 0;
  while (got < size) {
    int n = 0;
    IoResult r = Retry(
        ssl_, fd_, deadline, stop,
        [&] {
          return SSL_read(
              ssl_, buf + got,
              static_cast<int>(std::min<size_t>(size - got, 1 << 30)));
        },
        &n);
    if (r != IoResult::kOk) return r;
    got += static_cast<size_t>(n);
  }
  return IoResult::kOk;
}

IoResult Transport::WriteAll(const char* data, size_t size,
                             absl::Time deadline) {
  if (ssl_ == nullptr) return server::WriteAll(fd_, data, size, deadline);
  size_t sent = 0;
  while (sent < size) {
    int n = 0;
    IoResult r = Retry(
        ssl_, fd_, deadline, nullptr,
        [&] {
          return SSL_write(
              ssl_, data + sent,
              static_cast<int>(std::min<size_t>(size - sent, 1 << 30)));
        },
        &n);
    if (r != IoResult::kOk) return r;
    sent += static_cast<size_t>(n);
  }
  return IoResult::kOk;
}

}  // namespace server
}  // namespace ttldb

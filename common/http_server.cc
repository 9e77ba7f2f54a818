#include "common/http_server.h"

#include <fcntl.h>
#include <gnutls/gnutls.h>
#include <microhttpd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/listen_socket.h"
#include "common/logging.h"
#include "common/status_macros.h"

namespace fleetcap {
namespace {

constexpr intptr_t kEventLoopStackBytes = 512 * 1024;

}  // namespace

std::string HttpServerRequest::Header(const std::string& name) const {
  for (const auto& [key, value] : headers) {
    if (absl::EqualsIgnoreCase(key, name)) return value;
  }
  return "";
}

// libmicrohttpd's callbacks. A request goes through these phases, each call
// of OnAccess on the event loop moving it on:
//   kNew        headers complete: suspended while `admit` runs on a handler thread;
//   kAdmitted   resumed: the refusal is answered, or the body is read;
//   kBody       each piece of the body appended, checked against size and deadline;
//   kHandling   body complete: suspended while `handle` runs on a handler thread;
//   kAnswered   resumed: the answer is queued.
struct HttpServerEvents {
  enum class Phase { kNew, kAdmitting, kAdmitted, kBody, kHandling, kAnswered };
  struct Request {
    HttpServerRequest request;
    absl::Duration deadline;  // on the server's clock's Monotonic()
    Phase phase = Phase::kNew;
    std::optional<HttpServerResponse> answer;  // written by a handler thread while suspended
  };

  // The first call for each request, once its request line is read: the
  // deadline counts from here until the request is admitted, then again
  // from its admission for the body.
  static void* OnRequestLine(void* self, const char* uri, MHD_Connection*) {
    const auto* server = static_cast<const HttpServer*>(self);
    auto* request = new Request;
    request->request.target = uri;
    const size_t question = request->request.target.find('?');
    request->request.path = request->request.target.substr(0, question);
    if (question != std::string::npos) request->request.query = request->request.target.substr(question + 1);
    request->deadline = server->clock_->Monotonic() + server->options_.read_timeout;
    return request;
  }

  static void OnCompleted(void*, MHD_Connection*, void** state, MHD_RequestTerminationCode) {
    delete static_cast<Request*>(*state);
    *state = nullptr;
  }

  static MHD_Result CollectHeader(void* headers, MHD_ValueKind, const char* key, const char* value) {
    static_cast<std::vector<std::pair<std::string, std::string>>*>(headers)->emplace_back(key, value ? value : "");
    return MHD_YES;
  }

  static void Log(void* self, const char* format, va_list arguments) {
    auto* server = static_cast<HttpServer*>(self);
    // Any client can make the library complain (a failed handshake, a bad
    // request line): the first few are enough to see what happens.
    if (server->complaints_logged_.fetch_add(1) >= 5) return;
    char text[512];
    vsnprintf(text, sizeof text, format, arguments);
    Logger(server->options_.log_name)->warn("{}", std::string(absl::StripTrailingAsciiWhitespace(text)));
  }

  static void FreeBody(void* body) { delete static_cast<std::string*>(body); }

  static MHD_Result Queue(MHD_Connection* connection, HttpServerResponse answer, bool close) {
    auto* body = new std::string(std::move(answer.body));
    MHD_Response* response =
        MHD_create_response_from_buffer_with_free_callback_cls(body->size(), body->data(), &FreeBody, body);
    if (response == nullptr) {
      delete body;
      return MHD_NO;
    }
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, answer.content_type.c_str());
    for (const auto& [name, value] : answer.headers) MHD_add_response_header(response, name.c_str(), value.c_str());
    if (close || answer.close) MHD_add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
    const MHD_Result queued = MHD_queue_response(connection, static_cast<unsigned>(answer.status), response);
    MHD_destroy_response(response);
    return queued;
  }

  // Called before an answer that leaves some of the body unread: the
  // connection's socket is drained for a while after libmicrohttpd closes it.
  static void LingerAfterClose(HttpServer* server, MHD_Connection* connection) {
    const MHD_ConnectionInfo* info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info == nullptr) return;
    if (const int own = fcntl(info->connect_fd, F_DUPFD_CLOEXEC, 0); own >= 0) server->lingering_.Adopt(own);
  }

  static bool BodyFollows(const HttpServerRequest& request) {
    return request.content_length > 0 || !request.Header("Transfer-Encoding").empty();
  }

  // libmicrohttpd takes an answer only before the body or after all of it.
  // A body refused half way (too large, too late) is answered here, on the
  // socket, and the connection is then closed by returning MHD_NO.
  static MHD_Result AnswerMidBodyAndClose(HttpServer* server, MHD_Connection* connection,
                                          const HttpServerResponse& answer) {
    const char* reason = MHD_get_reason_phrase_for(static_cast<unsigned>(answer.status));
    std::string text = absl::StrCat("HTTP/1.1 ", answer.status, " ", reason, "\r\nContent-Type: ", answer.content_type,
                                    "\r\nContent-Length: ", answer.body.size(), "\r\n");
    for (const auto& [name, value] : answer.headers) absl::StrAppend(&text, name, ": ", value, "\r\n");
    absl::StrAppend(&text, "Connection: close\r\n\r\n", answer.body);
    if (const MHD_ConnectionInfo* tls = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
        tls != nullptr && tls->tls_session != nullptr) {
      gnutls_record_send(static_cast<gnutls_session_t>(tls->tls_session), text.data(), text.size());
    } else if (const MHD_ConnectionInfo* fd = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
               fd != nullptr) {
      // A short answer fits the socket's buffer; what does not is lost with the connection anyway.
      send(fd->connect_fd, text.data(), text.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      shutdown(fd->connect_fd, SHUT_WR);
    }
    LingerAfterClose(server, connection);
    return MHD_NO;
  }

  // libmicrohttpd asks for a client certificate; whether it chains to the CA is checked here.
  static bool ClientCertificateVerified(MHD_Connection* connection) {
    const MHD_ConnectionInfo* tls = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_GNUTLS_SESSION);
    if (tls == nullptr || tls->tls_session == nullptr) return false;
    auto session = static_cast<gnutls_session_t>(tls->tls_session);
    unsigned int peers = 0;
    if (gnutls_certificate_get_peers(session, &peers) == nullptr || peers == 0) return false;
    unsigned int status = 0;
    return gnutls_certificate_verify_peers2(session, &status) == GNUTLS_E_SUCCESS && status == 0;
  }

  static void RunSuspended(HttpServer* server, MHD_Connection* connection, std::function<void()> work) {
    MHD_suspend_connection(connection);
    server->pool_.Post([connection, work = std::move(work)] {
      work();
      MHD_resume_connection(connection);
    });
  }

  // libmicrohttpd calls this again and again for one request; each call moves
  // it on by one phase, in the order of the enum.
  static MHD_Result OnAccess(void* self, MHD_Connection* connection, const char*, const char* method, const char*,
                             const char* upload_data, size_t* upload_data_size, void** state) {
    auto* server = static_cast<HttpServer*>(self);
    auto* request = static_cast<Request*>(*state);
    if (request == nullptr) return MHD_NO;  // OnRequestLine always runs first
    switch (request->phase) {
      case Phase::kNew:
        return OnNew(server, connection, method, request);
      case Phase::kAdmitted:
        return OnAdmitted(server, connection, request);
      case Phase::kBody:
        return OnBody(server, connection, upload_data, upload_data_size, request);
      case Phase::kHandling:
        return OnHandled(server, connection, request);
      case Phase::kAdmitting:
      case Phase::kAnswered:
        return MHD_YES;
    }
    return MHD_NO;
  }

  // The headers are in: admission runs on a handler thread.
  static MHD_Result OnNew(HttpServer* server, MHD_Connection* connection, const char* method, Request* request) {
    if (!server->options_.tls.client_ca.empty() && !ClientCertificateVerified(connection)) return MHD_NO;
    request->request.method = method;
    MHD_get_connection_values(connection, MHD_HEADER_KIND, &CollectHeader, &request->request.headers);
    long long length = -1;
    if (const std::string given = request->request.Header("Content-Length"); !given.empty()) {
      if (!absl::SimpleAtoi(given, &length)) length = -1;
    }
    request->request.content_length = length;
    request->phase = Phase::kAdmitting;
    RunSuspended(server, connection, [server, request] { Admit(server, request); });
    return MHD_YES;
  }

  static void Admit(HttpServer* server, Request* request) {
    const HttpServer::Handlers& handlers = server->handlers_;
    if (handlers.admit) request->answer = handlers.admit(request->request);
    const long long declared = request->request.content_length;
    if (!request->answer && declared > static_cast<long long>(server->options_.max_body_bytes)) {
      request->answer = server->BodyRefusal(
          request->request, 413,
          absl::StrCat("request body: ", declared, " bytes, expected at most ", server->options_.max_body_bytes));
    }
    request->phase = Phase::kAdmitted;
  }

  // Admission decided: a refusal is answered at once, otherwise the body is read.
  static MHD_Result OnAdmitted(HttpServer* server, MHD_Connection* connection, Request* request) {
    if (request->answer) {
      request->phase = Phase::kAnswered;
      // The body, if any, stays unread: the connection closes after the answer.
      if (BodyFollows(request->request)) LingerAfterClose(server, connection);
      return Queue(connection, *std::move(request->answer), true);
    }
    request->phase = Phase::kBody;
    // The body's time starts now: the wait for a handler thread to admit
    // the request is the server's, not the client's, and must never turn
    // into a 408 (a GET queued behind busy handlers got one).
    request->deadline = server->clock_->Monotonic() + server->options_.read_timeout;
    return MHD_YES;
  }

  // A piece of the body, or (size 0) its end, which hands the request to a handler thread.
  static MHD_Result OnBody(HttpServer* server, MHD_Connection* connection, const char* upload_data,
                           size_t* upload_data_size, Request* request) {
    const HttpServerOptions& options = server->options_;
    if (*upload_data_size > 0) {
      const size_t size = *upload_data_size;
      *upload_data_size = 0;
      HttpServerRequest& http = request->request;
      if (http.body.size() + size > options.max_body_bytes) {
        return AnswerMidBodyAndClose(
            server, connection,
            server->BodyRefusal(http, 413, absl::StrCat("request body: more than ", options.max_body_bytes, " bytes")));
      }
      if (server->clock_->Monotonic() > request->deadline) {
        return AnswerMidBodyAndClose(server, connection, server->BodyRefusal(http, 408, server->LateBody(http)));
      }
      if (http.body.empty() && http.content_length > 0) http.body.reserve(static_cast<size_t>(http.content_length));
      http.body.append(upload_data, size);
      return MHD_YES;
    }
    // The whole body is in.
    if (server->clock_->Monotonic() > request->deadline) {
      request->phase = Phase::kAnswered;
      return Queue(connection, server->BodyRefusal(request->request, 408, server->LateBody(request->request)), true);
    }
    request->phase = Phase::kHandling;
    RunSuspended(server, connection,
                 [server, request] { request->answer = server->handlers_.handle(request->request); });
    return MHD_YES;
  }

  // Once the handler has answered, its answer is queued.
  static MHD_Result OnHandled(HttpServer* server, MHD_Connection* connection, Request* request) {
    if (!request->answer) return MHD_YES;
    request->phase = Phase::kAnswered;
    return Queue(connection, *std::move(request->answer), !server->options_.keep_alive);
  }
};

std::string HttpServer::LateBody(const HttpServerRequest& request) const {
  return absl::StrCat("request body: ", request.body.size(), " bytes arrived within ",
                      absl::FormatDuration(options_.read_timeout),
                      request.content_length >= 0 ? absl::StrCat(" of ", request.content_length) : "");
}

HttpServerResponse HttpServer::BodyRefusal(const HttpServerRequest& request, int status,
                                           const std::string& message) const {
  const absl::Status problem =
      status == 413 ? absl::ResourceExhaustedError(message) : absl::DeadlineExceededError(message);
  HttpServerResponse answer;
  if (handlers_.refuse_body) {
    answer = handlers_.refuse_body(request, problem);
  } else {
    answer.body = message + "\n";
  }
  answer.status = status;
  answer.close = true;
  return answer;
}

absl::StatusOr<std::unique_ptr<HttpServer>> HttpServer::Start(const HttpServerOptions& options, Handlers handlers,
                                                              const Clock* clock) {
  std::unique_ptr<HttpServer> server(new HttpServer(options, std::move(handlers), clock));
  unsigned int flags = MHD_USE_EPOLL_INTERNAL_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
  const std::string& prefix = options.tls_flag_prefix;
  if (options.tls.enabled()) {
    FLEETCAP_RETURN_IF_ERROR(CheckTlsFiles(options.tls, prefix));
    FLEETCAP_ASSIGN_OR_RETURN(server->cert_pem_, ReadPemFile(prefix + "-cert", options.tls.cert));
    FLEETCAP_ASSIGN_OR_RETURN(server->key_pem_, ReadPemFile(prefix + "-key", options.tls.key));
    if (!options.tls.client_ca.empty()) {
      FLEETCAP_ASSIGN_OR_RETURN(server->client_ca_pem_, ReadPemFile(prefix + "-client-ca", options.tls.client_ca));
    }
    flags |= MHD_USE_TLS;
  }
  // Every connection is a file descriptor; the limit, not threads, is what bounds them.
  RaiseOpenFileLimit();
  auto listening = ListenTcp(options.listen, 1024);
  if (!listening.ok()) {
    return absl::UnavailableError(absl::StrCat(options.listen_flag, ": cannot listen on \"", options.listen,
                                               "\": ", listening.status().message()));
  }
  server->port_ = ListeningPort(*listening);
  if (absl::Status started = server->pool_.Start(options.handler_threads); !started.ok()) {
    close(*listening);
    return started;
  }
  std::vector<MHD_OptionItem> items = {
      // First, so that the library's complaints about the options that follow come here too.
      {MHD_OPTION_EXTERNAL_LOGGER, reinterpret_cast<intptr_t>(&HttpServerEvents::Log), server.get()},
      {MHD_OPTION_LISTEN_SOCKET, *listening, nullptr},
      {MHD_OPTION_CONNECTION_TIMEOUT,
       static_cast<intptr_t>(
           std::max<int64_t>(1, absl::ToInt64Seconds(absl::Ceil(options.read_timeout, absl::Seconds(1))))),
       nullptr},
      {MHD_OPTION_CONNECTION_LIMIT, options.max_connections, nullptr},
      // The event loops parse headers and run TLS, never a handler: a small stack each, so that a
      // handler that ran there by mistake would be caught (HttpServerTest).
      {MHD_OPTION_THREAD_STACK_SIZE, kEventLoopStackBytes, nullptr},
      {MHD_OPTION_URI_LOG_CALLBACK, reinterpret_cast<intptr_t>(&HttpServerEvents::OnRequestLine), server.get()},
      {MHD_OPTION_NOTIFY_COMPLETED, reinterpret_cast<intptr_t>(&HttpServerEvents::OnCompleted), server.get()},
  };
  if (options.max_connections_per_address > 0) {
    items.push_back({MHD_OPTION_PER_IP_CONNECTION_LIMIT, options.max_connections_per_address, nullptr});
  }
  if (options.event_loops > 1) items.push_back({MHD_OPTION_THREAD_POOL_SIZE, options.event_loops, nullptr});
  if (options.tls.enabled()) {
    items.push_back({MHD_OPTION_HTTPS_MEM_CERT, 0, server->cert_pem_.data()});
    items.push_back({MHD_OPTION_HTTPS_MEM_KEY, 0, server->key_pem_.data()});
    items.push_back({MHD_OPTION_HTTPS_PRIORITIES, 0, const_cast<char*>("NORMAL:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2")});
    if (!server->client_ca_pem_.empty()) {
      items.push_back({MHD_OPTION_HTTPS_MEM_TRUST, 0, server->client_ca_pem_.data()});
    }
  }
  items.push_back({MHD_OPTION_END, 0, nullptr});
  server->daemon_ = MHD_start_daemon(flags, 0, nullptr, nullptr, &HttpServerEvents::OnAccess, server.get(),
                                     MHD_OPTION_ARRAY, items.data(), MHD_OPTION_END);
  if (server->daemon_ == nullptr) {
    close(*listening);
    server->pool_.Stop();
    return absl::UnavailableError(absl::StrCat(
        options.listen_flag, ": cannot listen on \"", options.listen, "\"",
        options.tls.enabled() ? absl::StrCat(" with TLS (check ", prefix, "-cert and ", prefix, "-key)") : ""));
  }
  return server;
}

HttpServer::~HttpServer() {
  // Handlers first: each resumes its connection, which needs the daemon.
  pool_.Stop();
  if (daemon_ != nullptr) MHD_stop_daemon(daemon_);
}

}  // namespace fleetcap

# Sourced by the benchmark scripts: a private nginx serving a directory on a random loopback port.
#
#   $port                                  the port, chosen when this file is sourced
#   start_nginx WORK ROOT [SERVER_LINES] [CONNECTIONS]
#                                          writes WORK/nginx/nginx.conf (SERVER_LINES go inside its server block,
#                                          CONNECTIONS, default 1024, is how many it keeps open at once) and starts
#                                          nginx on $port; requests go to WORK/nginx/access.log in nginx's combined
#                                          format (status in field 9, body bytes in field 10); SERVER_LINES may
#                                          log to another file in the format "connection", the connection's serial
#                                          number and its request count, or "tls", the TLS version and cipher
#   stop_nginx WORK                        stops it
port=$((20000 + RANDOM % 20000))

start_nginx() {
  local work=$1 root=$2 extra=${3:-} connections=${4:-1024}
  mkdir -p "$work/nginx"
  cat > "$work/nginx/nginx.conf" <<EOF
worker_processes 1;
worker_rlimit_nofile $((2 * connections + 64));
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log;
events { worker_connections $connections; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log $work/nginx/access.log;
  log_format connection '\$connection \$connection_requests';
  log_format tls '\$ssl_protocol \$ssl_cipher';
  client_body_temp_path $work/nginx/body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  sendfile on;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$port;
    root $root;
    $extra
  }
}
EOF
  nginx -c "$work/nginx/nginx.conf" -p "$work/nginx"
}

stop_nginx() {
  kill "$(cat "$1/nginx/nginx.pid")" 2>/dev/null || true
}

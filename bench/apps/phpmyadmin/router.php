<?php
// The router of the phpMyAdmin workload's web server (PHP's built-in one), started by the bench
// (bench/src/apps.rs) as
//
//     php -S 127.0.0.1:PORT -t /usr/share/phpmyadmin bench/apps/phpmyadmin/router.php
//
// with AXSNAP_BENCH_PMA_ROOT naming the run's own copy of Debian's phpMyAdmin folder: links to
// every file of /usr/share/phpmyadmin but `libraries/vendor_config.php`, which points the app
// at the run's own config.inc.php and temporary folder (Debian's points at /etc/phpmyadmin).
// phpMyAdmin's entry scripts keep a ROOT_PATH they find defined, so each runs from that copy.
// Static files (scripts, styles, images) are served from the document root as they are.

declare(strict_types=1);

$path = parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH);
if (!is_string($path) || $path === '' || $path === '/') {
    $path = '/index.php';
}
if (!str_ends_with($path, '.php')) {
    return false;
}
$root = getenv('AXSNAP_BENCH_PMA_ROOT');
$script = ltrim($path, '/');
if (!is_string($root) || $root === '' || str_contains($script, '..') || !is_file($root . '/' . $script)) {
    http_response_code(404);
    echo 'Not found';
    return true;
}
define('ROOT_PATH', rtrim($root, '/') . '/');
require ROOT_PATH . $script;

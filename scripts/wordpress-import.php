<?php
// Imports a WXR file into a WordPress with WordPress's own importer (the wordpress-importer plugin,
// installed in that WordPress), then prints what WordPress holds as JSON, for
// scripts/wxr-wordpress-check.ts to compare with Folio's database.
// Usage: php scripts/wordpress-import.php WORDPRESS_DIR FILE.xml
[ , $wordpress, $file ] = $argv;
$_SERVER['HTTP_HOST'] = 'localhost';
define( 'WP_LOAD_IMPORTERS', true );
require $wordpress . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/admin.php';
require_once WP_PLUGIN_DIR . '/wordpress-importer/wordpress-importer.php';

wp_set_current_user( 1 );
// A fresh WordPress holds its own post (with a comment) and pages: gone, so slugs and counts are the file's.
foreach ( get_posts( [ 'post_type' => [ 'post', 'page' ], 'post_status' => 'any', 'numberposts' => -1, 'fields' => 'ids' ] ) as $id ) {
	wp_delete_post( $id, true );
}
// As the importer's form does when "create a new user" is chosen for every author of the file.
$parsed = ( new WXR_Parser() )->parse( $file );
foreach ( array_keys( $parsed['authors'] ) as $i => $login ) {
	$_POST['imported_authors'][ $i ] = $login;
	$_POST['user_new'][ $i ]         = $login;
}
$importer                    = new WP_Import();
$importer->fetch_attachments = false;
ob_start();
$importer->import( $file );
$log = ob_get_clean();

global $wpdb;
$posts = $wpdb->get_results( "SELECT ID, post_type, post_name, post_title, post_status, post_content, post_date_gmt, post_author FROM {$wpdb->posts} WHERE post_type IN ('post', 'page') ORDER BY ID", ARRAY_A );
$out   = [
	'log'   => trim( wp_strip_all_tags( $log ) ),
	'posts' => array_map(
		function ( $p ) use ( $wpdb ) {
			$terms    = wp_get_object_terms( (int) $p['ID'], [ 'category', 'post_tag' ] );
			$comments = $wpdb->get_results( $wpdb->prepare( "SELECT comment_ID, comment_parent, comment_approved, comment_content FROM {$wpdb->comments} WHERE comment_post_ID = %d ORDER BY comment_ID", $p['ID'] ), ARRAY_A );
			$ids      = array_column( $comments, 'comment_ID' );
			return [
				'type'     => $p['post_type'],
				'slug'     => $p['post_name'],
				'title'    => $p['post_title'],
				'status'   => $p['post_status'],
				'author'   => get_userdata( (int) $p['post_author'] )->user_login ?? '',
				'date_gmt' => $p['post_date_gmt'],
				'content'  => $p['post_content'],
				'terms'    => array_map( fn( $t ) => $t->taxonomy . ':' . $t->slug, $terms ),
				// Comment ids are WordPress's own; a parent is named by its place in this post's list (0: none).
				'comments' => array_map( fn( $c ) => [ (int) $c['comment_parent'] ? array_search( $c['comment_parent'], $ids ) + 1 : 0, $c['comment_approved'], $c['comment_content'] ], $comments ),
			];
		},
		$posts
	),
];
echo json_encode( $out, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES ), "\n";

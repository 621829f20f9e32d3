<?php
// Reads a WXR file with WordPress's own importer parsers (WordPress/wordpress-importer, a checkout
// given as the first argument: not vendored here) and prints what each parser found as JSON, for
// scripts/wxr-wordpress-check.ts to compare with Folio's database. The importer's parsers call a
// few WordPress functions; these stubs stand in for them and do nothing else.
// Usage: php scripts/wxr-wordpress.php IMPORTER_DIR FILE.xml
class WP_Error {
	public function __construct( public string $code = '', public string $message = '', public mixed $data = null ) {}
	public function get_error_code() { return $this->code; }
	public function get_error_message() { return $this->message; }
	public function get_error_data() { return $this->data; }
}
function is_wp_error( $thing ) { return $thing instanceof WP_Error; }
function __( $text, $domain = 'default' ) { return $text; }
function _doing_it_wrong( $function, $message, $version ) { fwrite( STDERR, "$function: $message\n" ); }

[ , $importer, $file ] = $argv;
foreach ( [ 'class-wxr-parser.php', 'class-wxr-parser-simplexml.php', 'class-wxr-parser-xml.php', 'class-wxr-parser-regex.php' ] as $parser ) {
	require_once "$importer/src/parsers/$parser";
}

// WordPress's XML parser (the fallback when SimpleXML is missing) skips any text PHP finds falsy,
// so it reads the text "0" as empty: a comment's parent 0 and approval 0, in WordPress's own exports
// as in Folio's (both write `0`). Read back as 0 here; the other two parsers read "0" themselves.
$found = [];
foreach ( [ 'simplexml' => 'WXR_Parser_SimpleXML', 'xml' => 'WXR_Parser_XML', 'regex' => 'WXR_Parser_Regex' ] as $name => $class ) {
	$result = ( new $class() )->parse( $file );
	if ( is_wp_error( $result ) ) {
		$found[ $name ] = [ 'error' => $result->get_error_code() . ': ' . $result->get_error_message() ];
		continue;
	}
	$found[ $name ] = [
		'version'    => $result['version'],
		'authors'    => array_values( array_map( fn( $a ) => $a['author_login'], $result['authors'] ) ),
		'categories' => array_map( fn( $c ) => $c['category_nicename'], $result['categories'] ),
		'tags'       => array_map( fn( $t ) => $t['tag_slug'], $result['tags'] ),
		'posts'      => array_map(
			fn( $p ) => [
				'type'     => $p['post_type'],
				'slug'     => $p['post_name'],
				'title'    => $p['post_title'],
				'status'   => $p['status'],
				'author'   => $p['post_author'],
				'date_gmt' => $p['post_date_gmt'],
				'content'  => $p['post_content'],
				'terms'    => array_map( fn( $t ) => $t['domain'] . ':' . $t['slug'], $p['terms'] ?? [] ),
				'comments' => array_map( fn( $c ) => [ (int) $c['comment_id'], (int) $c['comment_parent'], '' === $c['comment_approved'] ? '0' : $c['comment_approved'], $c['comment_content'] ], $p['comments'] ?? [] ),
			],
			$result['posts']
		),
	];
}
echo json_encode( $found, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES ), "\n";

package mentions

import "strings"

// commonWords are ordinary English words that are also brand names often
// enough to matter: a one-word brand among them ("Monday", "Notion",
// "Square") is counted only where an answer uses it as a name. The list is
// deliberately small and plain; brand_aliases adds distinctive forms
// ("monday.com") that match anywhere.
var commonWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(commonWordList) {
		m[w] = true
	}
	return m
}()

const commonWordList = `
monday tuesday wednesday thursday friday saturday sunday
january february march april may june july august september october november december
spring summer autumn fall winter today tomorrow morning evening night day week month year time
red orange yellow green blue purple pink brown black white grey gray silver gold golden
apple orange banana lemon lime peach pear plum cherry berry grape mint honey sugar salt pepper bread cake
coffee tea milk water wine beer juice
zoom notion slack square stripe target gap shell amazon apple oracle signal discord loom miro
box dropbox basecamp trello asana linear figma canva wix ghost medium substack patreon
bolt lime bird uber lyft
chase ally capital discover citizens
dove tide gain cheer joy era
nest ring echo alexa fire kindle
pilot compass anchor harbor harbour bridge tower castle garden park river lake ocean sea bay island
mountain hill valley forest field meadow stone rock sand wood oak pine maple cedar willow birch
sun moon star stars sky cloud rain snow storm wind thunder lightning
fox wolf bear lion tiger eagle hawk owl raven crow swan dove falcon otter beaver bee ant spider
horse pony zebra panda koala penguin dolphin whale shark salmon trout
home house door window key lock table chair bed light lamp book books paper pen pencil
note notes page pages letter word words story stories news journal
bank card cash coin pay money fund trust credit
shop store market mart outlet depot
health care cure fit fitness yoga spa
blue simple smart clear bright fresh pure true open free fair fast quick swift rapid
happy lucky brave bold calm wise kind good great grand prime best first one
new next now
go run walk jump fly ride drive move shift
build make create craft design code
plan path way road route trail track
hub base core point spot place space zone
link bond match pair team crew group club
sense mind brain idea spark flash pulse beat wave
level step rise lift boost peak summit top
guide mentor coach tutor school class course
view vision focus lens
venture quest journey voyage
mail post chat talk call meet
`

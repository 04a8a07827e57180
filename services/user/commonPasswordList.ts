// Word cores of the most common passwords (the part left after the digits, symbols and leet
// swaps around them are undone), written from the well-known leaked-password rankings. Keyboard
// walks and digit runs are recognised by rule in commonPasswords.ts, not listed here.

export const COMMON_PASSWORD_WORDS = `
trustnoone trustno access master michael jordan superman batman letmein welcome sunshine princess
football baseball iloveu iloveyou loveyou lovers lover babygirl baby babyboy angel angels
beautiful pretty sweet sweetie sweetheart honey honeybee cutie cute butterfly rainbow unicorn
flowers tiger lion eagle falcon phoenix wolf wolves bear bears panther panthers dolphin dolphins
horse horses kitten kitty puppy doggy doggie snoopy scooby garfield mickey minnie donald goofy
pluto simba nemo elmo barbie tinkerbell cinderella ariel jasmine matrix neo trinity morpheus
gandalf frodo hobbit legolas zelda mario luigi sonic pikachu naruto sasuke goku vegeta
dragonball onepiece minecraft fortnite roblox warcraft starcraft diablo halo xbox playstation
nintendo gamer gaming player tennis golf golfer boxing racing runner swimming chicago boston
dallas denver houston miami newyork london paris berlin rome tokyo sydney toronto canada
america usa texas california florida qwert asdfg zxcvb qazxsw wsxedc edcrfv rfvtgb qweasdzxc
asdzxc poiuy lkjhg mnbvc poiuytrewq lkjhgfdsa mnbvcxz azertyuiop wxcvbn christ jesuschrist
lord godisgood faith hope grace blessing church bible prayer amen maggie molly bella lucy daisy
sophie chloe max rocky duke bailey sadie lola zoey coco oscar toby jack jake buddy peanut
muffin cupcake candy sugar vanilla cherry strawberry peach lemon lime mango pumpkin potato
tomato pizza burger hotdog taco nacho bacon beer whiskey vodka tequila wine party partytime
fun funny happy smile smiley sunny shine star stars starlight moon moonlight sun sunset sunrise
ocean sea beach island snow snowball snowman christmas xmas easter halloween holiday vacation
travel adventure liberty justice peace hate killer death dead devil demon evil hell sexy
hottie hot cool cooldude dude hustler gangster thug boss bigboss chief captain major general
admiral soldier army navy marine police fire firefighter doctor nurse teacher student school
college university hi hey hiya yes nothing anything everything something forever always never
together mommy daddy mom dad mama papa grandma grandpa brother sister son daughter children
kids iloveme myself private public system server network database oracle mysql postgres linux
ubuntu debian unix macbook laptop desktop monitor keyboard mouse printer router modem wifi
passwd pwd toor yahoo hotmail gmail outlook email mail shopping money123 cash rich richard
robert william david james john joseph charles george edward henry peter paul mark steven
kevin brian jason justin ryan eric adam nathan kyle tyler brandon aaron zachary samuel
benjamin alexander alex anthony christopher chris nicholas jonathan patrick sean scott
timothy jeffrey gregory jeremy dustin travis chad derek cody austin dylan logan ethan
mary patricia linda barbara elizabeth susan margaret sarah karen nancy lisa betty helen
sandra donna carol ruth sharon laura emily amanda melissa deborah stephanie rebecca amy
angela anna kimberly brittany samantha hannah emma olivia ava isabella mia abigail madison
elephant giraffe zebra monkey1 turtle rabbit bunny hamster parrot penguin shark whale
dinosaur dragonfly spider scorpion cobra viper python java javascript coding developer
programmer hacker1 cyber crypto bitcoin ethereum blockchain trading stocks investor
password passwords passphrase letmeinnow openup opensesame welcomehome homesweethome
myhome home house garden kitchen bedroom office1 work working job jobs career company1
`;
